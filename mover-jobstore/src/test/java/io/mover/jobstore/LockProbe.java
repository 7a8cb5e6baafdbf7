package io.mover.jobstore;

import java.nio.file.Path;

import io.mover.spi.MoverException;

/** Run in a second JVM by {@link DataDirLockTest}: opens the store on a data directory, prints what happened. */
public final class LockProbe {
    private LockProbe() {
    }

    public static void main(String[] args) {
        try (JobDatabase database = JobStores.open(Path.of(args[0]))) {
            System.out.println("opened " + database.dialect());
        }
        catch (MoverException e) {
            System.out.println(e.code() + ": " + e.getMessage());
            System.exit(3);
        }
    }
}
