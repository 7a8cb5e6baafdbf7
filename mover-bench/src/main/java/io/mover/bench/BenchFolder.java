package io.mover.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;

import static java.util.Objects.requireNonNull;

/**
 * The bench's own folder on the target, {@code <folder>/run-<time>-<random>/}, and the rules that keep
 * it from touching anything else: a folder that exists without mover's marker file is refused, so bench
 * never writes into (or deletes from) a folder someone else owns; removal deletes only the names the
 * bench wrote, one by one, and folders only when they are empty.
 */
final class BenchFolder {
    static final String MARKER = ".mover-bench";
    private static final byte[] MARKER_TEXT = ("This folder belongs to mover bench. It deletes only the run-* folders it wrote here;\n"
            + "anything else in it is left alone. Remove the folder when you no longer need it.\n").getBytes(StandardCharsets.UTF_8);

    private final Sink sink;
    private final RelativePath folder;
    private final RelativePath run;
    private final boolean createdFolder;

    private BenchFolder(Sink sink, RelativePath folder, RelativePath run, boolean createdFolder) {
        this.sink = sink;
        this.folder = folder;
        this.run = run;
        this.createdFolder = createdFolder;
    }

    /** Checks or creates {@code folder} (with its marker) and creates this run's folder in it. */
    static BenchFolder open(Sink sink, String folderName, String target, Clock clock) {
        requireNonNull(sink, "sink is null");
        target = io.mover.spi.EndpointUri.parse(target).toString(); // shown with its query hidden: it may hold a SAS
        RelativePath folder = RelativePath.of(folderName);
        Optional<Entry> existing = sink.stat(folder);
        boolean created = existing.isEmpty();
        if (existing.isPresent()) {
            boolean ours = existing.get().isDirectory() && sink.stat(folder.resolve(MARKER)).filter(Entry::isFile).isPresent();
            if (!ours) {
                throw new MoverException(ErrorCode.ALREADY_EXISTS, "the bench folder " + folderName + " already exists in " + target
                        + " and is not mover's (it has no " + MARKER + " marker); mover bench never writes into data it did not create: "
                        + "choose another --folder, or remove it yourself");
            }
        }
        else {
            sink.mkdirs(folder);
            writeMarker(sink, folder.resolve(MARKER), clock);
        }
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(clock.instant());
        RelativePath run = folder.resolve("run-" + stamp + "-" + HexFormat.of().toHexDigits((short) ThreadLocalRandom.current().nextInt()));
        if (sink.stat(run).isPresent()) {
            throw new MoverException(ErrorCode.ALREADY_EXISTS, "the run folder " + run + " already exists in " + target + "; run the bench again");
        }
        sink.mkdirs(run);
        return new BenchFolder(sink, folder, run, created);
    }

    private static void writeMarker(Sink sink, RelativePath marker, Clock clock) {
        SinkWriter writer = sink.create(marker, MARKER_TEXT.length, Entry.file(marker, MARKER_TEXT.length, clock.instant()));
        try {
            writer.write(0, ByteBuffer.wrap(MARKER_TEXT));
            writer.commit();
        }
        catch (RuntimeException e) {
            writer.abort();
            throw e;
        }
    }

    RelativePath run() {
        return run;
    }

    /**
     * Deletes {@code files}, then {@code directories} (deepest first), all below {@code base}; a folder
     * that is not empty afterwards holds something the bench did not write and is kept.
     *
     * @return what was kept, in words, for the report's notes
     */
    List<String> remove(RelativePath base, List<RelativePath> files, List<RelativePath> directories) {
        for (RelativePath file : files) {
            sink.delete(base.resolve(file), false);
        }
        Stream<RelativePath> deepestFirst = Stream.concat(directories.stream().map(base::resolve), Stream.of(base))
                .sorted((a, b) -> Integer.compare(b.depth(), a.depth()));
        return deepestFirst.map(this::removeIfEmpty).flatMap(Optional::stream).toList();
    }

    /** Removes the run folder, and the bench folder and its marker when this run created them and nothing else is there. */
    List<String> close() {
        List<String> kept = new java.util.ArrayList<>(removeIfEmpty(run).stream().toList());
        if (createdFolder && kept.isEmpty()) {
            try (Stream<Entry> entries = sink.list(folder)) {
                if (entries.allMatch(entry -> entry.path().name().equals(MARKER))) {
                    sink.delete(folder.resolve(MARKER), false);
                    removeIfEmpty(folder).ifPresent(kept::add);
                }
            }
        }
        return kept;
    }

    private Optional<String> removeIfEmpty(RelativePath directory) {
        try (Stream<Entry> entries = sink.list(directory)) {
            if (entries.findAny().isPresent()) {
                return Optional.of("kept " + directory + ": it holds entries mover bench did not write");
            }
        }
        catch (MoverException e) {
            if (e.code() == ErrorCode.NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
        try {
            sink.delete(directory, false);
        }
        catch (MoverException e) {
            // something the listing does not show (another job's temporary) keeps it: say so, never force it
            return Optional.of("kept " + directory + ": " + e.getMessage());
        }
        return Optional.empty();
    }
}
