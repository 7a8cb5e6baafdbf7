package io.mover.plugins.gen;

/**
 * What a {@code gen://} location generates: {@code files} files, each {@code size} bytes except the
 * last, which holds {@code lastSize} (so that a total that does not divide evenly is met exactly), at
 * most {@code fanout} entries per directory, with bytes of {@code data} from {@code seed}.
 */
record GenSpec(long files, long size, long lastSize, int fanout, DataKind data, long seed) {
    static final long MAX_FILES = 1_000_000_000_000L;

    GenSpec {
        if (files < 0 || files > MAX_FILES) {
            throw new IllegalArgumentException("files must be between 0 and " + MAX_FILES + ", got " + files);
        }
        if (size < 0 || lastSize < 0) {
            throw new IllegalArgumentException("sizes cannot be negative");
        }
        if (fanout < 2) {
            throw new IllegalArgumentException("fanout must be at least 2, got " + fanout);
        }
    }

    /**
     * From what the user gave (each may be absent, as null): two of files, size and total fix the
     * third; one alone takes the defaults for the others (1,000 files of 1 MiB).
     */
    static GenSpec of(Long files, Long size, Long total, int fanout, DataKind data, long seed) {
        if (files != null && size != null && total != null) {
            throw new IllegalArgumentException("give at most two of files, size and total: the third follows from them");
        }
        if (total != null) {
            if (files != null) {
                if (files == 0) {
                    throw new IllegalArgumentException("files=0 cannot hold a total of " + total + " bytes");
                }
                long each = total / files;
                return new GenSpec(files, each, total - (files - 1) * each, fanout, data, seed);
            }
            long each = size != null ? size : Math.min(total, 1L << 20);
            if (each == 0) {
                return total == 0 ? new GenSpec(0, 0, 0, fanout, data, seed) : fail("size=0 cannot make up a total of " + total + " bytes");
            }
            long count = Math.max(1, (total + each - 1) / each);
            return new GenSpec(count, each, total - (count - 1) * each, fanout, data, seed);
        }
        long count = files != null ? files : 1000;
        long each = size != null ? size : 1L << 20;
        return new GenSpec(count, each, each, fanout, data, seed);
    }

    private static GenSpec fail(String message) {
        throw new IllegalArgumentException(message);
    }

    long sizeOf(long index) {
        return index == files - 1 ? lastSize : size;
    }

    long total() {
        return files == 0 ? 0 : (files - 1) * size + lastSize;
    }
}
