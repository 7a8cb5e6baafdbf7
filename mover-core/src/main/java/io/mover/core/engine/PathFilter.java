package io.mover.core.engine;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

/**
 * Include and exclude globs. A pattern without {@code /} matches a name at any depth ({@code *.tmp});
 * one with {@code /} matches the whole relative path ({@code logs/**}), and a leading {@code /} anchors a
 * name to the root ({@code /cache}), as in rsync. An excluded directory is not
 * entered; includes apply to files only, so directories are always crawled for matching files.
 */
public final class PathFilter {
    private final List<Glob> includes;
    private final List<Glob> excludes;

    public PathFilter(List<String> includes, List<String> excludes) {
        this.includes = includes.stream().map(p -> Glob.of(p, "--include")).toList();
        this.excludes = excludes.stream().map(p -> Glob.of(p, "--exclude")).toList();
    }

    /** Loops, not streams: called for every entry a copy or sync lists, most often with no glob at all. */
    public boolean includesFile(RelativePath path) {
        return !anyMatches(excludes, path) && (includes.isEmpty() || anyMatches(includes, path));
    }

    public boolean entersDirectory(RelativePath path) {
        return !anyMatches(excludes, path);
    }

    private static boolean anyMatches(List<Glob> globs, RelativePath path) {
        // by index: an iterator per call was the filter's only allocation, even with no glob at all
        for (int i = 0; i < globs.size(); i++) {
            if (globs.get(i).matches(path)) {
                return true;
            }
        }
        return false;
    }

    private record Glob(PathMatcher matcher, boolean wholePath) {
        static Glob of(String pattern, String option) {
            String trimmed = pattern.startsWith("/") ? pattern.substring(1) : pattern;
            if (trimmed.isEmpty()) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "empty " + option + " pattern");
            }
            try {
                return new Glob(FileSystems.getDefault().getPathMatcher("glob:" + trimmed), pattern.startsWith("/") || trimmed.contains("/"));
            }
            catch (IllegalArgumentException e) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid " + option + " pattern '" + pattern + "': " + e.getMessage().lines().findFirst().orElse(""));
            }
        }

        boolean matches(RelativePath path) {
            return matcher.matches(Path.of(wholePath ? path.toString() : path.name()));
        }
    }
}
