package io.mover.spi;

import java.util.OptionalLong;

/**
 * An optional ability of a {@link Sink}: how many bytes new files may still take in its tree, so that a
 * caller that knows how much it will write ({@code mover bench}) can refuse before writing anything. A local
 * file system answers its usable space (statfs), an NFS export FSSTAT's bytes available to this user, an Azure
 * Files share its quota less its usage, a tcp:// peer what its receiver's destination answers.
 *
 * <p>Thread-safe like the sink; may be called at any time between creating and closing it.
 *
 * @since 1.1
 */
public interface FreeSpace {
    /**
     * The bytes new files may take below {@code directory} (which need not exist yet: the nearest existing
     * folder above it counts), as the storage reports them now; empty when this endpoint cannot tell (a server
     * without the call, a far end that does not say). A failed query throws as any call of the sink does.
     */
    OptionalLong usableSpace(RelativePath directory);
}
