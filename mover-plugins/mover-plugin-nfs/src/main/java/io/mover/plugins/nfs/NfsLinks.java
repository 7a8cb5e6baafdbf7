package io.mover.plugins.nfs;

import io.mover.plugins.nfs.client.Fattr;
import io.mover.plugins.nfs.client.FileHandle;
import io.mover.plugins.nfs.client.NfsClient;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.RelativePath;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Symbolic links followed ({@code follow-symlinks}, {@code --follow-symlinks}) as a client that mounted the export
 * would see them: a relative target is resolved from the directory that really holds the link, through further
 * links (at most {@value #MAX_HOPS}, Linux's limit), by LOOKUPs from the export's root. What cannot be resolved
 * inside the export (an absolute target, which names a path in some client's namespace; a target above the
 * export's root; too many links) stays a link, and the engine reports it skipped. A dangling link is left out, as
 * the local plugin does. A link to a directory that contains it (a loop) stays a link, so the crawl ends.
 *
 * <p>Thread-safe.
 */
final class NfsLinks {
    static final int MAX_HOPS = 40;

    private final NfsTree tree;
    private final String root;
    /** The real path in the export ("a/b"; "" the export's root) of each followed directory link, by its path in the endpoint. */
    private final Map<RelativePath, String> followed = new ConcurrentHashMap<>();

    private enum Outcome { FOUND, DANGLING, UNRESOLVED }

    private record Resolution(Outcome outcome, String realPath, NfsClient.Lookup found) {
        static final Resolution DANGLING = new Resolution(Outcome.DANGLING, "", null);
        static final Resolution UNRESOLVED = new Resolution(Outcome.UNRESOLVED, "", null);
    }

    NfsLinks(NfsTree tree) {
        this.tree = tree;
        this.root = String.join("/", segments(tree.session().folder()));
    }

    /**
     * What the link at {@code path} shows when followed: the file or directory it leads to, under the link's name
     * (a directory's handle is remembered, so the crawl lists it); the link itself when it leads outside the export
     * or back to a directory above it; empty when it leads nowhere.
     */
    Optional<Entry> follow(RelativePath path, NfsClient.Lookup link) {
        String text = tree.client().readlink(link.handle(), "read the link " + tree.describe(path));
        Entry asLink = NfsTree.link(path, link.attributes(), text);
        String directory = realPath(path.parent());
        Resolution resolution = walk(directory, text, 1, path);
        if (resolution.outcome() == Outcome.DANGLING) {
            return Optional.empty();
        }
        if (resolution.outcome() == Outcome.UNRESOLVED) {
            return Optional.of(asLink);
        }
        Fattr target = resolution.found().attributes();
        if (target.isDirectory()) {
            String real = resolution.realPath();
            if (real.isEmpty() || directory.equals(real) || directory.startsWith(real + "/")) {
                return Optional.of(asLink);   // a loop: the link leads to a directory that holds it
            }
            followed.put(path, real);
            tree.remember(path, resolution.found().handle());
        }
        Entry entry = NfsTree.entry(path, target);
        return Optional.of(entry.type() == EntryType.OTHER ? asLink : entry);
    }

    /** The handle of what the link at {@code path} leads to, or empty (for open and stat of a followed path). */
    Optional<NfsClient.Lookup> target(RelativePath path, NfsClient.Lookup link) {
        String text = tree.client().readlink(link.handle(), "read the link " + tree.describe(path));
        Resolution resolution = walk(realPath(path.parent()), text, 1, path);
        if (resolution.outcome() == Outcome.FOUND && resolution.found().attributes().isDirectory()) {
            followed.put(path, resolution.realPath());
        }
        return resolution.outcome() == Outcome.FOUND ? Optional.of(resolution.found()) : Optional.empty();
    }

    /** The real path in the export of a directory of the endpoint: its own, unless a followed link is on the way. */
    String realPath(RelativePath directory) {
        if (directory.isRoot()) {
            return root;
        }
        String known = followed.get(directory);
        if (known != null) {
            return known;
        }
        String parent = realPath(directory.parent());
        return parent.isEmpty() ? directory.name() : parent + "/" + directory.name();
    }

    private Resolution walk(String base, String text, int hops, RelativePath link) {
        if (hops > MAX_HOPS || text.isEmpty() || text.startsWith("/")) {
            return Resolution.UNRESOLVED;
        }
        List<String> path = new ArrayList<>(segments(base));
        for (String segment : text.split("/")) {
            if (segment.equals("..")) {
                if (path.isEmpty()) {
                    return Resolution.UNRESOLVED;   // above the export's root
                }
                path.removeLast();
            }
            else if (!segment.isEmpty() && !segment.equals(".")) {
                path.add(segment);
            }
        }
        String what = "follow the link " + tree.describe(link);
        FileHandle handle = tree.session().exportRoot();
        NfsClient.Lookup found = new NfsClient.Lookup(handle, tree.client().getattr(handle, what));
        List<String> walked = new ArrayList<>();
        for (int i = 0; i < path.size(); i++) {
            if (!found.attributes().isDirectory()) {
                return Resolution.DANGLING;   // a file where a directory should be
            }
            Optional<NfsClient.Lookup> next = tree.client().lookup(found.handle(), path.get(i), what);
            if (next.isEmpty()) {
                return Resolution.DANGLING;
            }
            found = next.get();
            if (found.attributes().type() == Fattr.SYMLINK) {
                Resolution inner = walk(String.join("/", walked), tree.client().readlink(found.handle(), what), hops + 1, link);
                if (inner.outcome() != Outcome.FOUND) {
                    return inner;
                }
                walked = new ArrayList<>(segments(inner.realPath()));
                found = inner.found();
            }
            else {
                walked.add(path.get(i));
            }
        }
        return new Resolution(Outcome.FOUND, String.join("/", walked), found);
    }

    private static List<String> segments(String path) {
        List<String> segments = new ArrayList<>();
        for (String segment : path.split("/")) {
            if (!segment.isEmpty()) {
                segments.add(segment);
            }
        }
        return segments;
    }
}
