package io.mover.plugins.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

import static java.util.Objects.requireNonNull;

/**
 * The local sink's symbolic and hard links: each made under a temporary name and renamed over its final
 * name at once, so that a reader sees the old entry or the new link, never neither. Thread-safe.
 */
final class LocalLinks {
    private final LocalConfinement confinement;
    private final String jobKey;

    LocalLinks(LocalConfinement confinement, String jobKey) {
        this.confinement = requireNonNull(confinement, "confinement is null");
        this.jobKey = requireNonNull(jobKey, "jobKey is null");
    }

    void symbolic(RelativePath path, String target) {
        replaceWithLink(path, "create the symbolic link", temporary -> Files.createSymbolicLink(temporary, Path.of(target)));
    }

    /** The file at {@code existing} must be a regular file inside the root (a link is never followed). */
    void hard(RelativePath path, RelativePath existing) {
        LocalTemporaries.refuseReserved(existing);
        Path file = confinement.inside(existing);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new MoverException(ErrorCode.NOT_FOUND, "cannot link " + path + " to " + existing + ": no file is there");
        }
        replaceWithLink(path, "create the hard link", temporary -> Files.createLink(temporary, file));
    }

    private void replaceWithLink(RelativePath path, String what, LinkMaker maker) {
        LocalTemporaries.refuseReserved(path);
        Path link = confinement.inside(path);
        Path temporary = link.resolveSibling(LocalTemporaries.name(jobKey, path.name()));
        try {
            maker.make(temporary);
            Files.move(temporary, link, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (IOException e) {
            try {
                Files.deleteIfExists(temporary);
            }
            catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw IoErrors.map(e, what, link);
        }
    }

    private interface LinkMaker {
        void make(Path temporary) throws IOException;
    }
}
