package io.mover.spi;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A path inside an endpoint, relative to its root: segments joined by {@code /}. The only path type
 * that crosses the SPI, and the one place where paths are checked, so that no plugin can be asked to
 * touch anything outside its root.
 *
 * <p>Rejected (as {@link ErrorCode#INVALID_PATH}): a leading {@code /}, a {@code .} or {@code ..}
 * segment, an empty segment ({@code a//b}), a NUL character, a backslash, a segment longer than
 * {@value #MAX_SEGMENT_BYTES} bytes, and a whole path longer than {@value #MAX_PATH_BYTES} bytes (UTF-8).
 * Anything else the operating systems allow in a name is kept as is (spaces, unicode, {@code :}).
 *
 * <p>Ordering is by segments, each compared as a Java string, so that a directory's entries sort
 * together and a parent sorts before its children. Immutable and thread-safe.
 */
public final class RelativePath implements Comparable<RelativePath> {
    public static final int MAX_SEGMENT_BYTES = 255;
    public static final int MAX_PATH_BYTES = 4096;
    /** The endpoint's root directory itself. */
    public static final RelativePath ROOT = new RelativePath(null, "", "");

    // A path is its parent and its last name: a listing resolves every entry against its folder, and a copied
    // list of segments per entry was four objects of the sync's per-entry cost; the segments are built on demand.
    private final RelativePath parent;
    private final String name;
    private final int depth;
    /**
     * The whole path; for the ancestors {@link #of} creates and for paths {@link #resolve} makes, built on first use: a deep path's every prefix as a
     * string was quadratic in its length (4 MB of chars for a hostile path of 2,048 one-letter names). A String
     * has final fields, so a racing first use publishes it safely.
     */
    private String path;
    /** Built on first use; an immutable list (final fields inside), so a racing first use publishes it safely. */
    private List<String> segments;

    private RelativePath(RelativePath parent, String name, String path) {
        this.parent = parent;
        this.name = name;
        this.depth = parent == null ? 0 : parent.depth + 1;
        this.path = path;
    }

    /** Parses and checks {@code path}; the empty string is {@link #ROOT}. */
    public static RelativePath of(String path) {
        requireNonNull(path, "path is null");
        if (path.isEmpty()) {
            return ROOT;
        }
        if (utf8Longer(path, MAX_PATH_BYTES)) {
            throw invalid(path, "longer than " + MAX_PATH_BYTES + " bytes");
        }
        if (path.startsWith("/")) {
            throw invalid(path, "absolute paths are not allowed here");
        }
        RelativePath result = ROOT;
        int start = 0;
        while (start <= path.length()) {
            int slash = path.indexOf('/', start);
            int end = slash < 0 ? path.length() : slash;
            String segment = path.substring(start, end);
            checkSegment(path, segment);
            result = new RelativePath(result, segment, slash < 0 ? path : null);
            if (slash < 0) {
                break;
            }
            start = slash + 1;
        }
        return result;
    }

    private static void checkSegment(String path, String segment) {
        if (segment.isEmpty()) {
            throw invalid(path, "empty path segment");
        }
        if (segment.equals(".") || segment.equals("..")) {
            throw invalid(path, "'.' and '..' segments are not allowed");
        }
        if (segment.indexOf('\0') >= 0) {
            throw invalid(path, "NUL character");
        }
        if (segment.indexOf('\\') >= 0) {
            throw invalid(path, "backslash in a name");
        }
        if (utf8Longer(segment, MAX_SEGMENT_BYTES)) {
            throw invalid(path, "a name longer than " + MAX_SEGMENT_BYTES + " bytes");
        }
    }

    /**
     * Whether {@code text} takes more than {@code limit} bytes in UTF-8. A char takes at most 3 bytes (a surrogate
     * pair 4 for its 2 chars), so a short name is known to fit without encoding it: every entry of every listing
     * passes here, and the encoding was one array per entry.
     */
    static boolean utf8Longer(String text, int limit) {
        if ((long) text.length() * 3 <= limit) {
            return false;
        }
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > limit;
    }

    private static MoverException invalid(String path, String reason) {
        String shown = path.length() > 200 ? path.substring(0, 200) + "..." : path;
        return new MoverException(ErrorCode.INVALID_PATH,
                "invalid path '" + shown.replace("\0", "\\0") + "': " + reason);
    }

    /** This path with one more segment; {@code name} must be a single valid segment. */
    public RelativePath resolve(String name) {
        requireNonNull(name, "name is null");
        if (name.indexOf('/') >= 0) {
            throw invalid(name, "a single name was expected");
        }
        checkSegment(name, name);
        // the whole path built on first use too: a listing resolves every entry, and a no-change sync never asks
        // most of them for it (the concatenation was a third of resolve's CPU in such a sync of 100,000 files)
        return new RelativePath(this, name, depth == 0 ? name : null);
    }

    public RelativePath resolve(RelativePath other) {
        RelativePath result = this;
        for (String segment : other.segments()) {
            result = result.resolve(segment);
        }
        return result;
    }

    public boolean isRoot() {
        return depth == 0;
    }

    /** The parent; the root's parent is the root. */
    public RelativePath parent() {
        return parent == null ? ROOT : parent;
    }

    /** The last segment; the empty string for the root. */
    public String name() {
        return name;
    }

    /** The names from the root down; unmodifiable. */
    public List<String> segments() {
        List<String> result = segments;
        if (result == null) {
            String[] names = new String[depth];
            for (RelativePath at = this; at.depth > 0; at = at.parent) {
                names[at.depth - 1] = at.name;
            }
            result = List.of(names);
            segments = result;
        }
        return result;
    }

    public int depth() {
        return depth;
    }

    public boolean startsWith(RelativePath prefix) {
        if (prefix.depth > depth) {
            return false;
        }
        RelativePath ancestor = this;
        while (ancestor.depth > prefix.depth) {
            ancestor = ancestor.parent;
        }
        return ancestor.path().equals(prefix.path());
    }

    @Override
    public int compareTo(RelativePath other) {
        List<String> mine = segments();
        List<String> theirs = other.segments();
        int common = Math.min(mine.size(), theirs.size());
        for (int i = 0; i < common; i++) {
            int c = mine.get(i).compareTo(theirs.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(mine.size(), theirs.size());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RelativePath other && path().equals(other.path());
    }

    @Override
    public int hashCode() {
        return path().hashCode();
    }

    /** The path as {@code a/b/c}; the root is the empty string. */
    @Override
    public String toString() {
        return path();
    }

    private String path() {
        String result = path;
        if (result == null) {
            // the parent's path when it is known (a listed folder's entries: one concatenation), else every segment once,
            // never each ancestor's path in turn (quadratic for a deep path)
            String known = parent.path;
            if (parent.depth == 0) {
                result = name;
            }
            else {
                result = known != null ? known + "/" + name : String.join("/", segments());
            }
            path = result;
        }
        return result;
    }
}
