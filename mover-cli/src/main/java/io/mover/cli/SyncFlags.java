package io.mover.cli;

import java.time.Duration;
import java.util.Optional;

import io.mover.core.engine.SyncOptions;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/** What a sync compares, filters and deletes: mixed into {@code mover sync} and {@code mover schedules create}. */
final class SyncFlags {
    @Option(names = "--delete-destination", paramLabel = "true|false|prompt", defaultValue = "false", converter = DeleteConverter.class,
            description = "Delete files and folders at DST that SRC does not have: true, false, or prompt (ask once the plan is known). Default: ${DEFAULT-VALUE}.")
    SyncOptions.DeleteMode deletes;

    @Option(names = "--max-delete", paramLabel = "N", defaultValue = "-1",
            description = "Fail before deleting anything when the sync would delete more than N files; -1 for no limit. Default: ${DEFAULT-VALUE}.")
    long maxDelete;

    @Option(names = "--force", description = "Delete even when SRC lists no file at all (refused by default: an unmounted share looks like that).")
    boolean force;

    @Option(names = "--compare", paramLabel = "size-mtime|size-only|checksum", defaultValue = "size-mtime", converter = CompareConverter.class,
            description = "When a file at DST is unchanged: same size and modification time (within the coarser precision of the two sides),"
                    + " same size only, or same content hash (read where no endpoint stores one). Default: ${DEFAULT-VALUE}.")
    SyncOptions.ComparePolicy compare;

    @Option(names = "--size-only", description = "Same as --compare size-only.")
    boolean sizeOnly;

    @Option(names = "--files-from", paramLabel = "FILE", description = "Consider only the relative paths listed in FILE, one a line (# comments).")
    String filesFrom;

    @Option(names = "--min-size", paramLabel = "SIZE", defaultValue = "0", converter = Converters.Size.class, description = "Leave smaller files alone (on both sides).")
    long minSize;

    @Option(names = "--max-size", paramLabel = "SIZE", converter = Converters.Size.class, description = "Leave larger files alone (on both sides).")
    Long maxSize;

    @Option(names = "--min-age", paramLabel = "AGE", converter = AgeConverter.class, description = "Leave files modified more recently than AGE alone (30m, 12h, 7d).")
    Duration minAge;

    @Option(names = "--max-age", paramLabel = "AGE", converter = AgeConverter.class, description = "Leave files modified longer ago than AGE alone.")
    Duration maxAge;

    @Option(names = "--catalog", description = {"Read the destination from the catalog the last successful sync of SRC to DST kept, instead of",
            "listing it, and keep the catalog up to date. Only for destinations nothing but mover writes: a change made there",
            "behind mover's back is not seen (docs/cli.md). A failed sync drops the catalog; the next one lists again."})
    boolean catalog;

    SyncOptions options() {
        return new SyncOptions(deletes, maxDelete, sizeOnly ? SyncOptions.ComparePolicy.SIZE_ONLY : compare, force, Optional.ofNullable(filesFrom),
                minSize, maxSize == null ? -1 : maxSize, Optional.ofNullable(minAge), Optional.ofNullable(maxAge), catalog);
    }

    static final class DeleteConverter implements ITypeConverter<SyncOptions.DeleteMode> {
        @Override
        public SyncOptions.DeleteMode convert(String value) {
            return Converters.parsed(() -> SyncOptions.DeleteMode.parse(value));
        }
    }

    static final class CompareConverter implements ITypeConverter<SyncOptions.ComparePolicy> {
        @Override
        public SyncOptions.ComparePolicy convert(String value) {
            return Converters.parsed(() -> SyncOptions.ComparePolicy.parse(value));
        }
    }

    /** An age: {@code 7d} for days, or any duration {@code --progress-interval} takes. */
    static final class AgeConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String trimmed = value.trim();
            if (trimmed.matches("\\d+(\\.\\d+)?[dD]")) {
                return Duration.ofSeconds((long) (Double.parseDouble(trimmed.substring(0, trimmed.length() - 1)) * 86_400));
            }
            return new Converters.Interval().convert(value);
        }
    }
}
