package io.mover.core.engine;

/** What the engine does with symbolic links found in the source. */
public enum SymlinkPolicy {
    /** Skip them, counted as skipped (the default, as in azcopy). */
    SKIP,
    /** Copy what they point to, as regular files or directories. */
    FOLLOW,
    /** Recreate the link itself at the destination, where the sink can. */
    PRESERVE
}
