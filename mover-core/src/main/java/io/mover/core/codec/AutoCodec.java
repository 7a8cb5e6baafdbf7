package io.mover.core.codec;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import io.mover.spi.Codec;
import io.mover.spi.CodecFactory;
import io.mover.spi.LinkSink;

import static java.util.Objects.requireNonNull;

/**
 * {@code --codec auto} over a link (DESIGN §5): one {@link Codec} per worker that encodes each block with
 * the codec {@link AutoChoice} currently holds best, and now and then tastes every candidate on a block
 * to keep the figures fresh. Its {@link #wireId()} is the id of the codec that produced the last block,
 * which is what {@link BlockCodec} writes in that block's header; a block "compressed" with {@code none}
 * reports its own length, so {@link BlockCodec} sends it raw. Not thread-safe (one per worker, as any codec).
 */
final class AutoCodec implements Codec {
    /** Bytes of a block each candidate compresses when it is tasted. */
    static final int TASTE_BYTES = 128 << 10;
    /** Bytes each codec compresses, untimed, when a worker's auto codec is made. */
    static final int WARM_UP_BYTES = 16 << 10;

    private final AutoChoice choice;
    private final List<Codec> codecs;
    private byte lastWireId;

    AutoCodec(AutoChoice choice) {
        this.choice = requireNonNull(choice, "choice is null");
        this.codecs = make(choice.candidates());
        warmUp(codecs);
    }

    /** One codec per candidate, null for none. */
    private static List<Codec> make(List<AutoChoice.Candidate> candidates) {
        List<Codec> made = new ArrayList<>();
        for (AutoChoice.Candidate candidate : candidates) {
            made.add(candidate.factory() == null ? null : candidate.factory().create(candidate.level()));
        }
        return made;
    }

    /**
     * Starts making auto's candidates on a daemon thread of their own, for a link that is still connecting (SPI
     * {@code SinkFactory.linksToPeer}): the first codec of each kind loads its native library and links its FFM calls
     * (lz4 and zstd: about 90 ms of CPU here, measured), which otherwise ran after the handshake, before the first
     * block. The receiver's codecs are not known yet, so every installed one auto would take; the job's own
     * {@link AutoCodec}s are made later as before and find them linked. A platform thread: a native call would pin a
     * virtual thread's carrier, and the connecting streams run on those.
     */
    static void prepare(Collection<CodecFactory> installed) {
        Set<Byte> all = installed.stream().map(CodecFactory::wireId).collect(Collectors.toSet());
        List<AutoChoice.Candidate> candidates = AutoCandidates.of(installed, all);
        Thread.ofPlatform().daemon().name("mover-codecs").start(() -> {
            try {
                warmUp(make(candidates));
            }
            catch (RuntimeException e) {
                // a codec that cannot be made fails the job's own AutoCodec the same way, where it is reported
            }
        });
    }

    /**
     * One untimed compression per codec before any taste: a codec's first call pays for linking its native calls and
     * building its context, and timed in the first taste it made lz4 look slower than zstd:3 on zeros, which then
     * carried 12-30 % of a GiB before warm tastes moved the choice (docs/benchmarks.md, the TCP peer).
     */
    private static void warmUp(List<Codec> codecs) {
        ByteBuffer input = ByteBuffer.allocateDirect(WARM_UP_BYTES);
        for (int i = 0; i < WARM_UP_BYTES; i++) {
            input.put(i, (byte) (i % 251 / 8));
        }
        int room = codecs.stream().filter(Objects::nonNull).mapToInt(codec -> codec.maxCompressedLength(WARM_UP_BYTES)).max().orElse(0);
        ByteBuffer output = ByteBuffer.allocateDirect(Math.max(room, WARM_UP_BYTES));
        for (Codec codec : codecs) {
            if (codec != null) {
                codec.compress(input.duplicate(), output.clear());
            }
        }
    }

    /** The factory behind {@code auto}: candidates are the installed codecs the link's far end decodes. */
    static CodecFactory factory(Collection<CodecFactory> installed, LinkSink link, int cores) {
        AutoChoice choice = new AutoChoice(AutoCandidates.of(installed, link.decodableCodecs()), link::load, cores, Placement.of(link));
        return new Factory(choice);
    }

    @Override
    public String name() {
        return "auto";
    }

    @Override
    public byte wireId() {
        return lastWireId;
    }

    @Override
    public int maxCompressedLength(int inputLength) {
        int max = inputLength;
        for (Codec codec : codecs) {
            if (codec != null) {
                max = Math.max(max, codec.maxCompressedLength(inputLength));
            }
        }
        return max;
    }

    /** A block went as zeros, a header alone: no candidate carried it, so only the summary counts it. */
    void zeroBlock() {
        choice.zeroBlock();
    }

    @Override
    public int compress(ByteBuffer input, ByteBuffer output) {
        int length = input.remaining();
        if (choice.shouldTaste()) {
            taste(input, output);
        }
        int index = choice.current();
        choice.used(index, length);
        Codec codec = codecs.get(index);
        if (codec == null) {
            // none: BlockCodec sends a block that did not shrink as raw
            input.position(input.limit());
            return length;
        }
        int start = output.position();
        CpuClock.Reading began = CpuClock.now();
        int written = codec.compress(input, output);
        choice.compressed(index, length, written, CpuClock.since(began));
        lastWireId = codec.wireId();
        output.position(start + written);
        return written;
    }

    /**
     * Every candidate on the first {@value #TASTE_BYTES} bytes of this block, into {@code scratch} (overwritten
     * afterwards by the real output). A sample, not the whole block: tasting five codecs (zstd:9 among them) on
     * every tasted MiB cost a fifth of the sender's compression time on mixed data, and a sample this size gives
     * the ratio and the speed as well.
     */
    private void taste(ByteBuffer input, ByteBuffer scratch) {
        int length = Math.min(input.remaining(), TASTE_BYTES);
        ByteBuffer sample = input.duplicate();
        sample.limit(sample.position() + length);
        int start = scratch.position();
        for (int i = 0; i < codecs.size(); i++) {
            Codec codec = codecs.get(i);
            if (codec == null) {
                continue;
            }
            scratch.position(start);
            CpuClock.Reading began = CpuClock.now();
            int written = codec.compress(sample.duplicate(), scratch);
            choice.measured(i, length, written, CpuClock.since(began));
        }
        scratch.position(start);
        choice.reconsider();
    }

    @Override
    public int decompress(ByteBuffer input, ByteBuffer output, int rawLength) {
        throw new IllegalStateException("auto encodes for a link; the far end decodes with the codec each block names");
    }

    /** Creates one {@link AutoCodec} per worker over the job's shared {@link AutoChoice}. */
    record Factory(AutoChoice choice) implements CodecFactory {
        @Override
        public String name() {
            return "auto";
        }

        @Override
        public byte wireId() {
            return 0;
        }

        /** What was chosen and why: shown as the job's codec in its summary. */
        @Override
        public String implementation() {
            return choice.describe();
        }

        @Override
        public Codec create(int level) {
            return new AutoCodec(choice);
        }
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", fraction * 100);
    }

}
