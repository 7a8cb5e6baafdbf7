package io.mover.core.engine;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * How a sync job decides and what it may remove (issue 4). Ignored by copy jobs. Immutable.
 *
 * @param deletes whether files at the destination that the source does not have are removed
 * @param maxDelete the most files a sync may delete; past it the job fails before deleting anything; -1 for no limit
 * @param compare what makes a file at the destination "unchanged"
 * @param force allow deletes when the source lists no file at all (an unmounted share looks like that)
 * @param filesFrom a file naming the relative paths to consider, one a line; everything else is left alone
 * @param minSize files smaller than this are left alone on both sides; 0 for none
 * @param maxSize files larger than this are left alone on both sides; -1 for none
 * @param minAge files modified more recently than this are left alone on both sides
 * @param maxAge files modified longer ago than this are left alone on both sides
 * @param catalog read the destination from the catalog of the last successful sync of this pair instead of listing it,
 *        and keep the catalog up to date ({@link SyncCatalog}); only for destinations nothing but mover writes
 */
public record SyncOptions(DeleteMode deletes, long maxDelete, ComparePolicy compare, boolean force, Optional<String> filesFrom,
        long minSize, long maxSize, Optional<Duration> minAge, Optional<Duration> maxAge, boolean catalog) {
    public static final SyncOptions DEFAULTS = new SyncOptions(DeleteMode.FALSE, -1, ComparePolicy.SIZE_MTIME, false, Optional.empty(),
            0, -1, Optional.empty(), Optional.empty(), false);

    public SyncOptions {
        requireNonNull(deletes, "deletes is null");
        requireNonNull(compare, "compare is null");
        requireNonNull(filesFrom, "filesFrom is null");
        requireNonNull(minAge, "minAge is null");
        requireNonNull(maxAge, "maxAge is null");
    }

    /** Options without the catalog. */
    public SyncOptions(DeleteMode deletes, long maxDelete, ComparePolicy compare, boolean force, Optional<String> filesFrom,
            long minSize, long maxSize, Optional<Duration> minAge, Optional<Duration> maxAge) {
        this(deletes, maxDelete, compare, force, filesFrom, minSize, maxSize, minAge, maxAge, false);
    }

    /** {@code --delete-destination}. */
    public enum DeleteMode {
        FALSE, TRUE,
        /** Ask the user (a terminal) once the plan is known; a job without anyone to ask deletes nothing. */
        PROMPT;

        public static DeleteMode parse(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "true" -> TRUE;
                case "false" -> FALSE;
                case "prompt" -> PROMPT;
                default -> throw new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid --delete-destination '" + text + "': use true, false or prompt");
            };
        }

        public String cliName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** {@code --compare}: how a file present on both sides is judged unchanged. */
    public enum ComparePolicy {
        /** Same size and modification times within the coarser precision of the two endpoints (rclone's and azcopy's default). */
        SIZE_MTIME,
        /** Same size only ({@code --size-only}). */
        SIZE_ONLY,
        /** Same size and same content hash: a hash both endpoints know, or read and hashed (SHA-256) by the engine. */
        CHECKSUM;

        public static ComparePolicy parse(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "size-mtime", "default", "mtime" -> SIZE_MTIME;
                case "size-only", "size" -> SIZE_ONLY;
                case "checksum", "hash" -> CHECKSUM;
                default -> throw new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid --compare '" + text + "': use size-mtime, size-only or checksum");
            };
        }

        public String cliName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    public boolean deletesAllowed() {
        return deletes != DeleteMode.FALSE;
    }

    public boolean filtersBySizeOrAge() {
        return minSize > 0 || maxSize >= 0 || minAge.isPresent() || maxAge.isPresent();
    }

    public SyncOptions withDeletes(DeleteMode mode) {
        return new SyncOptions(mode, maxDelete, compare, force, filesFrom, minSize, maxSize, minAge, maxAge, catalog);
    }

    public SyncOptions withCatalog(boolean value) {
        return new SyncOptions(deletes, maxDelete, compare, force, filesFrom, minSize, maxSize, minAge, maxAge, value);
    }

    /** Checks ranges; throws naming the first bad option. */
    public void validate() {
        if (maxDelete < -1) {
            throw invalid("--max-delete " + maxDelete + ": must be 0 or more");
        }
        if (minSize < 0 || maxSize < -1 || (maxSize >= 0 && maxSize < minSize)) {
            throw invalid("size filter (min " + minSize + ", max " + maxSize + "): sizes must be 0 or more and --max-size at least --min-size");
        }
        if (minAge.filter(Duration::isNegative).isPresent() || maxAge.filter(Duration::isNegative).isPresent()) {
            throw invalid("age filter: ages must not be negative");
        }
        if (minAge.isPresent() && maxAge.isPresent() && maxAge.get().compareTo(minAge.get()) < 0) {
            throw invalid("age filter: --max-age " + maxAge.get() + " is less than --min-age " + minAge.get());
        }
    }

    private static MoverException invalid(String what) {
        return new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid " + what);
    }
}
