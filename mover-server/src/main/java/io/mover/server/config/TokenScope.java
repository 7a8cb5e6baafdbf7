package io.mover.server.config;

/** What a bearer token may do. Each scope includes those before it: read < operate < admin. */
public enum TokenScope {
    /** GET (and HEAD): list and watch jobs, plugins, metrics, health. */
    READ,
    /** Everything read may, plus changing jobs: submit, cancel, pause, resume, patch. */
    OPERATE,
    /** Everything operate may, plus the server's administration: actuator endpoints beyond health and prometheus. */
    ADMIN;

    public boolean permits(TokenScope needed) {
        return compareTo(needed) >= 0;
    }
}
