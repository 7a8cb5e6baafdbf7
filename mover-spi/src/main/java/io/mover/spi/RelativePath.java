package io.mover.spi;

import java.util.ArrayList;
import java.util.Collections;
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
    public static final RelativePath ROOT = new RelativePath(List.of(), "");

    private final List<String> segments;
    private final String path;

    private RelativePath(List<String> segments, String path) {
        this.segments = segments;
        this.path = path;
    }

    /** Parses and checks {@code path}; the empty string is {@link #ROOT}. */
    public static RelativePath of(String path) {
        requireNonNull(path, "path is null");
        if (path.isEmpty()) {
            return ROOT;
        }
        if (path.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
            throw invalid(path, "longer than " + MAX_PATH_BYTES + " bytes");
        }
        if (path.startsWith("/")) {
            throw invalid(path, "absolute paths are not allowed here");
        }
        List<String> parts = new ArrayList<>();
        int start = 0;
        while (start <= path.length()) {
            int slash = path.indexOf('/', start);
            int end = slash < 0 ? path.length() : slash;
            String segment = path.substring(start, end);
            checkSegment(path, segment);
            parts.add(segment);
            if (slash < 0) {
                break;
            }
            start = slash + 1;
        }
        return new RelativePath(Collections.unmodifiableList(parts), path);
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
        if (segment.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_SEGMENT_BYTES) {
            throw invalid(path, "a name longer than " + MAX_SEGMENT_BYTES + " bytes");
        }
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
        List<String> parts = new ArrayList<>(segments.size() + 1);
        parts.addAll(segments);
        parts.add(name);
        return new RelativePath(Collections.unmodifiableList(parts), path.isEmpty() ? name : path + "/" + name);
    }

    public RelativePath resolve(RelativePath other) {
        RelativePath result = this;
        for (String segment : other.segments) {
            result = result.resolve(segment);
        }
        return result;
    }

    public boolean isRoot() {
        return segments.isEmpty();
    }

    /** The parent; the root's parent is the root. */
    public RelativePath parent() {
        if (segments.size() <= 1) {
            return ROOT;
        }
        return new RelativePath(segments.subList(0, segments.size() - 1), path.substring(0, path.lastIndexOf('/')));
    }

    /** The last segment; the empty string for the root. */
    public String name() {
        return segments.isEmpty() ? "" : segments.getLast();
    }

    public List<String> segments() {
        return segments;
    }

    public int depth() {
        return segments.size();
    }

    public boolean startsWith(RelativePath prefix) {
        return segments.size() >= prefix.segments.size() && segments.subList(0, prefix.segments.size()).equals(prefix.segments);
    }

    @Override
    public int compareTo(RelativePath other) {
        int common = Math.min(segments.size(), other.segments.size());
        for (int i = 0; i < common; i++) {
            int c = segments.get(i).compareTo(other.segments.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(segments.size(), other.segments.size());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RelativePath other && path.equals(other.path);
    }

    @Override
    public int hashCode() {
        return path.hashCode();
    }

    /** The path as {@code a/b/c}; the root is the empty string. */
    @Override
    public String toString() {
        return path;
    }
}
