package io.mover.plugins.azurefiles;

import java.util.Optional;
import java.util.stream.Stream;

import io.mover.spi.EndpointInfo;
import io.mover.spi.Entry;
import io.mover.spi.PluginCounters;
import io.mover.spi.RecursiveList;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;

/**
 * An Azure Files share as a source: listings with attributes, a tree crawled in parallel, ranged reads
 * ({@link AzureReader}). Directory entries name their share beside their permission key, so that a sink on another
 * share that preserves permissions can ask for the descriptor ({@link Permissions}); listing asks for none.
 */
final class AzureFilesSource implements Source, RecursiveList, PluginCounters {
    final AzureShare share;

    AzureFilesSource(AzureShare share) {
        this.share = share;
        share.permissions.opened();
    }

    @Override
    public EndpointInfo info() {
        return AzureShare.INFO;
    }

    @Override
    public Optional<Entry> stat(RelativePath path) {
        return share.stat(path).map(share.permissions::withOrigin);
    }

    @Override
    public Stream<Entry> list(RelativePath directory) {
        return share.list(directory, name -> false).map(share.permissions::withOrigin);
    }

    @Override
    public Stream<Entry> listRecursively(RelativePath directory) {
        return Crawl.tree(share, directory, name -> false).map(share.permissions::withOrigin);
    }

    @Override
    public SourceReader open(RelativePath path) {
        return new AzureReader(share, path);
    }

    /** The share's throttling counts: requests, 503s and 429s, resends, time waited. */
    @Override
    public java.util.Map<String, Long> counters() {
        return share.throttle.counters();
    }

    @Override
    public void close() {
        share.permissions.closed();
        share.close();
    }
}
