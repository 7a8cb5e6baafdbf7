package io.mover.core.codec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import io.mover.spi.CodecFactory;

/** The codecs {@code --codec auto} chooses among ({@link AutoChoice}). */
final class AutoCandidates {
    private AutoCandidates() {
    }

    /**
     * none first, then the fast codecs, then zstd at a few levels: what a slow link may pay for. snappy only where
     * the far end lacks lz4: lz4 had its ratio and encoded and decoded faster (bench/codecs.sh: 593 against 432
     * MB/s on one core), and on zeros snappy's blocks cost a receiver five times lz4's decoding, yet it was tried
     * for a share of the blocks whenever its taste ran fastest.
     */
    static List<AutoChoice.Candidate> of(Collection<CodecFactory> installed, Set<Byte> decodable) {
        List<AutoChoice.Candidate> list = new ArrayList<>();
        list.add(new AutoChoice.Candidate("none", null, 0));
        boolean lz4 = installed.stream().anyMatch(factory -> factory.name().equals("lz4") && decodable.contains(factory.wireId()));
        for (CodecFactory factory : installed) {
            if (!decodable.contains(factory.wireId())) {
                continue;
            }
            switch (factory.name()) {
                case "lz4" -> list.add(new AutoChoice.Candidate(factory.name(), factory, factory.defaultLevel()));
                case "snappy" -> {
                    if (!lz4) {
                        list.add(new AutoChoice.Candidate(factory.name(), factory, factory.defaultLevel()));
                    }
                }
                case "zstd" -> {
                    for (int level : new int[] {1, 3, 9}) {
                        if (level >= factory.minLevel() && level <= factory.maxLevel()) {
                            list.add(new AutoChoice.Candidate("zstd:" + level, factory, level));
                        }
                    }
                }
                default -> { }
            }
        }
        return list;
    }
}
