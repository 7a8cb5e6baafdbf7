package io.mover.server.config;

/** What a bearer token may do. Operate includes read. */
public enum TokenScope {
    /** GET (and HEAD): list and watch jobs, plugins, metrics. */
    READ,
    /** Everything read may, plus POST: submit and cancel jobs. */
    OPERATE;

    public boolean permits(TokenScope needed) {
        return this == OPERATE || needed == READ;
    }
}
