package io.mover.cli;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;

/** The command line of {@code mover receive} on a free loopback port, for the tests that start a receiver. */
final class ReceiveArgs {
    private ReceiveArgs() {}

    /** A loopback port free a moment ago (the receiver binds it next; nothing else on this machine races for it in tests). */
    static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    /** {@code receive --listen 127.0.0.1:PORT OPTIONS... DESTINATION}. */
    static String[] of(int port, Path destination, String... options) {
        String[] args = new String[options.length + 4];
        args[0] = "receive";
        args[1] = "--listen";
        args[2] = "127.0.0.1:" + port;
        System.arraycopy(options, 0, args, 3, options.length);
        args[args.length - 1] = destination.toString();
        return args;
    }
}
