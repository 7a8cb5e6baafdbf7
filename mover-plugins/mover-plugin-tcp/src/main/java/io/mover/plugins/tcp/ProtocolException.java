package io.mover.plugins.tcp;

/** The peer broke the protocol (a bad frame, a bad field, a request out of turn): its connection is closed. */
final class ProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ProtocolException(String message) {
        super(message);
    }
}
