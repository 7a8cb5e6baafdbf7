package io.mover.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.spi.SourceFactory;

/** The files and folders of one generated step, as relative paths, from its own listing (folders deepest first). */
record GenTree(List<RelativePath> files, List<RelativePath> directories) {
    static GenTree of(SourceFactory gen, String uri, PluginContext context) {
        List<RelativePath> files = new ArrayList<>();
        List<RelativePath> directories = new ArrayList<>();
        try (Source source = gen.create(EndpointUri.parse(uri), gen.configSpec().parse(Map.of()), context)) {
            walk(source, RelativePath.ROOT, files, directories);
        }
        directories.sort(Comparator.comparingInt(RelativePath::depth).reversed());
        return new GenTree(files, directories);
    }

    private static void walk(Source source, RelativePath directory, List<RelativePath> files, List<RelativePath> directories) {
        List<Entry> entries;
        try (Stream<Entry> listing = source.list(directory)) {
            entries = listing.toList();
        }
        for (Entry entry : entries) {
            if (entry.isDirectory()) {
                directories.add(entry.path());
                walk(source, entry.path(), files, directories);
            }
            else {
                files.add(entry.path());
            }
        }
    }
}
