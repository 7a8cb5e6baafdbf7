package io.mover.plugins.azurefiles;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginConfig;
import io.mover.spi.RelativePath;
import io.mover.spi.Secret;

/**
 * Where a share is and how to sign requests to it, from the URI, the plugin configuration and the environment.
 * Exactly one of {@code sas} and {@code accountKey} is present. Neither appears in {@link #toString()}.
 * @param endpoint the account's File endpoint, possibly with a path ({@code http://127.0.0.1:10000/devaccount})
 */
record AzureLocation(String account, String share, RelativePath root, String endpoint, Optional<Secret> sas, Optional<Secret> accountKey) {
    static final String SUFFIX = ".file.core.windows.net";

    static AzureLocation of(EndpointUri uri, PluginConfig config, Function<String, String> environment) {
        String account;
        String endpoint;
        if (uri.scheme().equals("https")) {
            String host = uri.authority().toLowerCase(Locale.ROOT);
            if (!host.endsWith(SUFFIX) && config.string("endpoint").isEmpty()) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "https location " + uri + " is not an Azure Files URL (https://ACCOUNT"
                        + SUFFIX + "/SHARE/PATH); for a private endpoint, set the plugin's endpoint setting");
            }
            account = host.substring(0, host.indexOf('.') < 0 ? host.length() : host.indexOf('.'));
            endpoint = "https://" + uri.authority();
        }
        else {
            account = uri.authority();
            endpoint = "https://" + account + SUFFIX;
        }
        if (!account.matches("[a-z0-9]{3,24}")) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "'" + account + "' is not a storage account name (3 to 24 lower-case letters and digits) in " + uri);
        }
        String path = uri.path().startsWith("/") ? uri.path().substring(1) : uri.path();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        int slash = path.indexOf('/');
        String share = slash < 0 ? path : path.substring(0, slash);
        if (!share.matches("[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]")) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "'" + share + "' is not a share name (3 to 63 lower-case letters, digits and single dashes): "
                    + "give a location such as azfiles://" + account + "/myshare/dir");
        }
        RelativePath root = slash < 0 ? RelativePath.ROOT : RelativePath.of(path.substring(slash + 1));
        endpoint = config.string("endpoint").orElse(endpoint).replaceAll("/+$", "");
        Optional<Secret> sas = uri.query().or(() -> config.secret("sas"));
        Optional<Secret> key = config.secret("account-key");
        Optional<Secret> connection = config.secret("connection-string");
        if (sas.isEmpty() && key.isEmpty() && connection.isEmpty()) {
            sas = Optional.ofNullable(environment.apply("AZURE_STORAGE_SAS_TOKEN")).filter(s -> !s.isBlank()).map(Secret::of);
            key = Optional.ofNullable(environment.apply("AZURE_STORAGE_KEY")).filter(s -> !s.isBlank()).map(Secret::of);
            connection = Optional.ofNullable(environment.apply("AZURE_STORAGE_CONNECTION_STRING")).filter(s -> !s.isBlank()).map(Secret::of);
        }
        if (sas.isEmpty() && key.isEmpty() && connection.isPresent()) {
            String text = connection.get().reveal();
            key = part(text, "AccountKey");
            sas = part(text, "SharedAccessSignature");
            Optional<String> fileEndpoint = part(text, "FileEndpoint").map(Secret::reveal);
            if (fileEndpoint.isPresent() && config.string("endpoint").isEmpty()) {
                endpoint = fileEndpoint.get().replaceAll("/+$", "");
            }
        }
        if (sas.isPresent()) {
            key = Optional.empty();
            sas = sas.map(s -> Secret.of(s.reveal().startsWith("?") ? s.reveal().substring(1) : s.reveal()));
        }
        if (sas.isEmpty() && key.isEmpty()) {
            throw new MoverException(ErrorCode.INVALID_CONFIG, "no credentials for storage account " + account + ": add a SAS to the URI, or set sas, "
                    + "account-key or connection-string (or AZURE_STORAGE_SAS_TOKEN, AZURE_STORAGE_KEY, AZURE_STORAGE_CONNECTION_STRING)");
        }
        return new AzureLocation(account, share, root, endpoint, sas, key);
    }

    private static Optional<Secret> part(String connectionString, String name) {
        for (String piece : connectionString.split(";")) {
            int eq = piece.indexOf('=');
            if (eq > 0 && piece.substring(0, eq).trim().equalsIgnoreCase(name)) {
                return Optional.of(Secret.of(piece.substring(eq + 1).trim()));
            }
        }
        return Optional.empty();
    }

    /** The share's URL, as users name it (never with credentials). */
    String display() {
        return "azfiles://" + account + "/" + share + (root.isRoot() ? "" : "/" + root);
    }

    @Override
    public String toString() {
        return display();
    }
}
