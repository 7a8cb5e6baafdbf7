package io.mover.cli;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * What {@code mover copy} adds to a {@code tcp://} destination's settings: {@code --streams}, the TLS options, and the
 * token from {@code $MOVER_PEER_TOKEN} unless one was given (so it never has to be on a command line).
 */
final class PeerOptions {
    private PeerOptions() {}

    static Map<String, String> destinationConfig(String destination, Map<String, String> given, Optional<Integer> streams, PeerTlsFlags.Sender tls,
            Map<String, String> environment) {
        boolean tcp = destination.toLowerCase(Locale.ROOT).startsWith("tcp://");
        if (!tcp) {
            if (streams.isPresent()) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "--streams applies to tcp:// destinations only; drop it");
            }
            if (tls.given()) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "--tls, --tls-fingerprint and --tls-ca apply to tcp:// destinations only; drop them");
            }
            return given;
        }
        Map<String, String> config = new LinkedHashMap<>(given);
        streams.ifPresent(n -> config.put("streams", Integer.toString(n)));
        tls.settings().forEach(config::putIfAbsent);
        String token = environment.get(ReceiveCommand.TOKEN_VARIABLE);
        if (token != null && !token.isBlank() && !config.containsKey("token") && !config.containsKey("token-file")) {
            config.put("token", token);
        }
        return config;
    }

    /**
     * {@code --format}: the tcp sink's {@code format} key. A tar stream is one plain connection, so
     * {@code --streams} and a token do not apply (the token this shell's environment would add is dropped;
     * one given on purpose is an error).
     */
    static Map<String, String> withFormat(String destination, Map<String, String> config, Map<String, String> given, Optional<Integer> streams,
            Optional<String> format) {
        if (format.isEmpty()) {
            return config;
        }
        if (!destination.toLowerCase(Locale.ROOT).startsWith("tcp://")) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "--format applies to tcp:// destinations only; drop it");
        }
        Map<String, String> result = new LinkedHashMap<>(config);
        result.put("format", format.get());
        if (!isTar(format.get())) {
            return result;
        }
        if (streams.isPresent()) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "--streams does not apply to --format " + format.get() + ": a tar stream is one connection; drop it");
        }
        if (given.containsKey("token") || given.containsKey("token-file")) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "--format " + format.get() + " sends plain tar, which has no authentication; drop the token");
        }
        result.remove("token");
        return result;
    }

    static boolean isTar(String format) {
        return format.strip().toLowerCase(Locale.ROOT).startsWith("tar");
    }
}
