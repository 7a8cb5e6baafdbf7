package io.mover.plugins.nfs.rpc;

/** A reply that does not decode as the XDR it should be: the connection that carried it is dropped. */
public final class XdrException extends RuntimeException {
    public XdrException(String message) {
        super(message);
    }
}
