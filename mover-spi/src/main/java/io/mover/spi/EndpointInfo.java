package io.mover.spi;

import java.time.Duration;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Facts about an endpoint that the engine needs to compare and plan; the engine decides policy.
 *
 * @param mtimePrecision the coarsest step in which modification times are kept ({@code 1ns} for ext4,
 *        {@code 2s} for FAT, {@code 100ns} for SMB); the compare treats two times within the coarser
 *        of two endpoints' precisions as equal
 * @param hashKinds content hash kinds the endpoint can give cheaply (see {@link ContentHashes})
 * @param caseSensitive whether {@code a} and {@code A} are different names
 * @param preservesPosixMode whether {@link Attributes#posixMode()} is stored and listed
 * @param preservesModificationTime whether a written file's modification time can be set
 */
public record EndpointInfo(Duration mtimePrecision, Set<String> hashKinds, boolean caseSensitive,
        boolean preservesPosixMode, boolean preservesModificationTime) {
    public EndpointInfo {
        requireNonNull(mtimePrecision, "mtimePrecision is null");
        hashKinds = Set.copyOf(requireNonNull(hashKinds, "hashKinds is null"));
    }
}
