package io.mover.server.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

import io.mover.server.config.ApiToken;

/**
 * Refuses to serve an open API to the network: off loopback, tokens are required. Checked while the
 * context starts, before the port is bound.
 */
public final class BindAddressGuard {
    private BindAddressGuard() {}

    /**
     * @param bindAddress {@code server.address}; empty means every interface
     * @throws IllegalStateException when the address is not loopback and there are no tokens
     */
    public static void check(String bindAddress, List<ApiToken> tokens) {
        if (!tokens.isEmpty() || isLoopback(bindAddress)) {
            return;
        }
        String where = bindAddress == null || bindAddress.isBlank() ? "every interface" : bindAddress;
        throw new IllegalStateException("refusing to start: the server would listen on " + where
                + ", which is not a loopback address, and no tokens are configured, so anyone who can reach it could move data."
                + " Set mover.tokens[0].token (a long random secret) and mover.tokens[0].scope (read, operate or admin),"
                + " or bind to 127.0.0.1 with mover.address.");
    }

    static boolean isLoopback(String bindAddress) {
        if (bindAddress == null || bindAddress.isBlank()) {
            return false;
        }
        try {
            for (InetAddress address : InetAddress.getAllByName(bindAddress.trim())) {
                if (!address.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        }
        catch (UnknownHostException e) {
            // an address that does not resolve cannot be shown to be loopback; the bind would fail anyway
            return false;
        }
    }
}
