package io.mover.plugins.nfs;

import io.mover.plugins.nfs.client.NfsClient;
import io.mover.spi.EndpointInfo;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginCounters;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/** An NFS export read through READDIRPLUS listings and pipelined READs with read-ahead. Thread-safe. */
final class NfsSource implements Source, PluginCounters {
    static final EndpointInfo INFO = new EndpointInfo(Duration.ofNanos(1), Set.of(), true, true, true);

    private final NfsTree tree;
    private final NfsOptions options;

    NfsSource(NfsSession session, NfsOptions options, boolean followLinks) {
        this.tree = new NfsTree(session, followLinks);
        this.options = options;
        tree.root(false);
    }

    @Override
    public EndpointInfo info() {
        return INFO;
    }

    @Override
    public Optional<Entry> stat(RelativePath path) {
        return tree.stat(path);
    }

    @Override
    public Stream<Entry> list(RelativePath directory) {
        return tree.entries(directory, name -> false).stream();
    }

    @Override
    public SourceReader open(RelativePath path) {
        NfsClient.Lookup found = tree.resolve(path).orElseThrow(() -> new MoverException(ErrorCode.NOT_FOUND, tree.describe(path) + " does not exist"));
        if (!found.attributes().isRegular()) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, tree.describe(path) + " is not a regular file");
        }
        return new NfsSourceReader(tree, found.handle(), found.attributes().size(), tree.session().readSize(),
                (int) Math.min(64, options.readAhead() / tree.session().readSize()), tree.describe(path));
    }

    @Override
    public java.util.Map<String, Long> counters() {
        return tree.session().counters();
    }

    @Override
    public void close() {
        tree.session().close();
    }
}
