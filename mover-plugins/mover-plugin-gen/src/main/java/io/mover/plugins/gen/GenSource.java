package io.mover.plugins.gen;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import io.mover.spi.EndpointInfo;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;

import static java.util.Objects.requireNonNull;

/** A generated tree: listings computed from the {@link GenTree}, contents copied from the {@link GenData} pattern. */
final class GenSource implements Source {
    /** Every entry has this time, so that a second copy of the same URI finds nothing changed. */
    static final Instant MTIME = Instant.parse("2026-01-01T00:00:00Z");
    private static final EndpointInfo INFO = new EndpointInfo(Duration.ofNanos(1), Set.of(), true, false, false);

    private final GenSpec spec;
    private final GenTree tree;
    private final ByteBuffer pattern;

    GenSource(GenSpec spec) {
        this.spec = requireNonNull(spec, "spec is null");
        this.tree = new GenTree(spec);
        this.pattern = GenData.pattern(spec.data(), spec.seed());
    }

    @Override
    public EndpointInfo info() {
        return INFO;
    }

    @Override
    public Optional<Entry> stat(RelativePath path) {
        return tree.find(path).map(node -> entry(path, node));
    }

    @Override
    public Stream<Entry> list(RelativePath directory) {
        GenTree.Node node = tree.find(directory)
                .orElseThrow(() -> new MoverException(ErrorCode.NOT_FOUND, "cannot list gen://" + directory + ": no such directory"));
        if (!(node instanceof GenTree.DirectoryNode(GenTree.Directory dir))) {
            throw new MoverException(ErrorCode.NOT_A_DIRECTORY, "cannot list gen://" + directory + ": it is a file");
        }
        return tree.children(dir).map(named -> entry(directory.resolve(named.name()), named.node()));
    }

    private Entry entry(RelativePath path, GenTree.Node node) {
        return switch (node) {
            case GenTree.DirectoryNode d -> Entry.directory(path, MTIME);
            case GenTree.FileNode(long index) -> Entry.file(path, spec.sizeOf(index), MTIME);
        };
    }

    @Override
    public SourceReader open(RelativePath path) {
        Optional<GenTree.Node> node = tree.find(path);
        if (node.isEmpty()) {
            throw new MoverException(ErrorCode.NOT_FOUND, "cannot open gen://" + path + ": no such file");
        }
        if (!(node.get() instanceof GenTree.FileNode(long index))) {
            throw new MoverException(ErrorCode.UNSUPPORTED, "cannot open gen://" + path + ": it is a directory");
        }
        return new Reader(pattern, spec.sizeOf(index), GenData.offset(spec.seed(), index));
    }

    @Override
    public void close() {}

    /** Copies the pattern from the file's offset, wrapping at its end. Stateless, so concurrent reads are safe. */
    private record Reader(ByteBuffer pattern, long size, int start) implements SourceReader {
        @Override
        public int read(long position, ByteBuffer destination) {
            if (position >= size || !destination.hasRemaining()) {
                return 0;
            }
            int total = (int) Math.min(destination.remaining(), size - position);
            int from = (int) ((start + position) % GenData.PATTERN_LENGTH);
            int done = 0;
            while (done < total) {
                int chunk = Math.min(total - done, GenData.PATTERN_LENGTH - from);
                destination.put(destination.position(), pattern, from, chunk);
                destination.position(destination.position() + chunk);
                done += chunk;
                from = 0;
            }
            return total;
        }

        @Override
        public void close() {}
    }
}
