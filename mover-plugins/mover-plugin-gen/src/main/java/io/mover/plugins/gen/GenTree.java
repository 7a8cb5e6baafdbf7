package io.mover.plugins.gen;

import java.util.Optional;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import io.mover.spi.RelativePath;

/**
 * The shape of a generated tree, computed, never stored: files {@code f<index>.bin} numbered from 0,
 * in directories {@code d<n>} nested as deep as needed to keep every directory at most
 * {@code fanout} entries. With {@code levels} levels, file {@code i}'s directories are the digits of
 * {@code i} in base {@code fanout}, most significant first (10,000 files, fanout 100:
 * {@code d17/f001742.bin}).
 */
final class GenTree {
    private final GenSpec spec;
    private final int levels;
    private final int directoryDigits;
    private final int fileDigits;

    GenTree(GenSpec spec) {
        this.spec = spec;
        int depth = 1;
        long span = spec.fanout();
        while (span < spec.files()) {
            span = Math.multiplyExact(span, spec.fanout());
            depth++;
        }
        this.levels = depth;
        this.directoryDigits = Long.toString(spec.fanout() - 1).length();
        this.fileDigits = Long.toString(Math.max(1, spec.files() - 1)).length();
    }

    /** A directory: its level (0 is the root) and its number among the directories of that level. */
    record Directory(int level, long number) {}

    /** A node of the tree: a directory, or a file by its index. */
    sealed interface Node permits DirectoryNode, FileNode {}

    record DirectoryNode(Directory directory) implements Node {}

    record FileNode(long index) implements Node {}

    /** What {@code path} names, or empty when the tree has no such entry. */
    Optional<Node> find(RelativePath path) {
        Directory at = new Directory(0, 0);
        var segments = path.segments();
        for (int s = 0; s < segments.size(); s++) {
            String name = segments.get(s);
            boolean last = s == segments.size() - 1;
            if (at.level() == levels - 1) {
                if (!last) {
                    return Optional.empty();
                }
                long index = number(name, 'f', fileDigits, ".bin");
                boolean inside = index >= 0 && index / spec.fanout() == at.number() && index < spec.files();
                return inside ? Optional.of(new FileNode(index)) : Optional.empty();
            }
            long child = number(name, 'd', directoryDigits, "");
            if (child < 0 || child >= spec.fanout() || !exists(at.level() + 1, at.number() * spec.fanout() + child)) {
                return Optional.empty();
            }
            at = new Directory(at.level() + 1, at.number() * spec.fanout() + child);
        }
        return Optional.of(new DirectoryNode(at));
    }

    /** The entries directly inside {@code directory}, as nodes with their names, in order. */
    Stream<Named> children(Directory directory) {
        long first = directory.number() * spec.fanout();
        if (directory.level() == levels - 1) {
            long end = Math.min(spec.files(), first + spec.fanout());
            return LongStream.range(first, Math.max(first, end)).mapToObj(i -> new Named(fileName(i), new FileNode(i)));
        }
        return LongStream.range(0, spec.fanout())
                .filter(j -> exists(directory.level() + 1, first + j))
                .mapToObj(j -> new Named(directoryName(j), new DirectoryNode(new Directory(directory.level() + 1, first + j))));
    }

    record Named(String name, Node node) {}

    String fileName(long index) {
        return "f" + pad(index, fileDigits) + ".bin";
    }

    private String directoryName(long child) {
        return "d" + pad(child, directoryDigits);
    }

    /** A directory of {@code level} with {@code number} exists when its first file does. */
    private boolean exists(int level, long number) {
        long filesBelow = 1;
        for (int l = level; l < levels; l++) {
            filesBelow *= spec.fanout();
        }
        return number * filesBelow < spec.files();
    }

    private static String pad(long value, int digits) {
        String text = Long.toString(value);
        return text.length() >= digits ? text : "0".repeat(digits - text.length()) + text;
    }

    /** The number in {@code name} ({@code prefix}, exactly {@code digits} digits, {@code suffix}), or -1. */
    private static long number(String name, char prefix, int digits, String suffix) {
        if (name.length() != 1 + digits + suffix.length() || name.charAt(0) != prefix || !name.endsWith(suffix)) {
            return -1;
        }
        long value = 0;
        for (int i = 1; i <= digits; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
