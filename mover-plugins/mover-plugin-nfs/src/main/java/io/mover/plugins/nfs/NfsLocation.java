package io.mover.plugins.nfs;

import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Where an nfs endpoint is: {@code nfs://SERVER[:PORT][,SERVER[:PORT]...]/EXPORT/PATH}. Several servers
 * name several addresses of one volume (NetApp data LIFs, say): every one serves the same export, and
 * mover stripes its calls over all of them, {@code connections} TCP connections each. The export is the
 * longest prefix of the path that the server exports; the rest is the folder inside it.
 *
 * @param port the NFS port given in the URI, or 0 to ask the portmapper
 */
record NfsLocation(List<InetSocketAddress> servers, List<Integer> ports, String path) {
    NfsLocation {
        servers = List.copyOf(requireNonNull(servers, "servers is null"));
        ports = List.copyOf(requireNonNull(ports, "ports is null"));
        requireNonNull(path, "path is null");
    }

    static NfsLocation parse(EndpointUri uri) {
        if (uri.query().isPresent()) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "an nfs:// location takes no query; give options with --source-option/--dest-option");
        }
        if (uri.authority().isBlank()) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "nfs location " + uri + " names no server: use nfs://SERVER[:PORT]/EXPORT/PATH");
        }
        List<InetSocketAddress> servers = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        for (String server : uri.authority().split(",")) {
            if (server.contains("@")) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "nfs location " + uri + ": AUTH_SYS takes no user name; use the uid and gid options");
            }
            int colon = server.lastIndexOf(':');
            boolean bracketed = server.startsWith("[");
            int port = 0;
            String host = server;
            if (colon > 0 && (!bracketed || server.lastIndexOf(']') < colon)) {
                try {
                    port = Integer.parseInt(server.substring(colon + 1));
                }
                catch (NumberFormatException e) {
                    throw new MoverException(ErrorCode.INVALID_ARGUMENT, "nfs location " + uri + ": port '" + server.substring(colon + 1) + "' is not a number");
                }
                host = server.substring(0, colon);
            }
            host = bracketed ? host.substring(1, host.length() - 1) : host;
            if (host.isBlank() || port < 0 || port > 65535) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "nfs location " + uri + ": '" + server + "' is not SERVER[:PORT]");
            }
            servers.add(InetSocketAddress.createUnresolved(host, 0));
            ports.add(port);
        }
        String path = uri.path().replaceAll("/+", "/");
        if (path.equals("/") || path.isEmpty()) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "nfs location " + uri + " names no export: use nfs://SERVER[:PORT]/EXPORT/PATH");
        }
        for (String segment : path.split("/")) {
            if (segment.equals("..") || segment.equals(".")) {
                throw new MoverException(ErrorCode.INVALID_PATH, "nfs location " + uri + ": '.' and '..' are not allowed in the path");
            }
        }
        return new NfsLocation(servers, ports, path.endsWith("/") ? path.substring(0, path.length() - 1) : path);
    }

    String describe() {
        StringBuilder text = new StringBuilder("nfs://");
        for (int i = 0; i < servers.size(); i++) {
            text.append(i == 0 ? "" : ",").append(servers.get(i).getHostString()).append(ports.get(i) == 0 ? "" : ":" + ports.get(i));
        }
        return text.append(path).toString();
    }
}
