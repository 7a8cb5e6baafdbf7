package io.mover.plugins.azurefiles;

import java.util.function.Function;

import io.mover.spi.ConfigKey;
import io.mover.spi.ConfigSpec;
import io.mover.spi.ConfigType;
import io.mover.spi.EndpointUri;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;
import io.mover.spi.Source;
import io.mover.spi.SourceFactory;

/** Creates Azure Files sources and sinks for one URI scheme; stateless, one instance serves every job. */
abstract class AzureFilesFactory {
    static final ConfigSpec SPEC = ConfigSpec.of(
            ConfigKey.optional("sas", ConfigType.SECRET, "A shared access signature (the query string, with or without '?'); or give it in the URI, or AZURE_STORAGE_SAS_TOKEN."),
            ConfigKey.optional("account-key", ConfigType.SECRET, "The storage account key (Shared Key); or AZURE_STORAGE_KEY."),
            ConfigKey.optional("connection-string", ConfigType.SECRET, "A storage connection string; or AZURE_STORAGE_CONNECTION_STRING."),
            ConfigKey.optional("endpoint", ConfigType.STRING, "The account's File endpoint, for private endpoints and sovereign clouds "
                    + "(https://ACCOUNT.privatelink.file.core.windows.net); default https://ACCOUNT.file.core.windows.net."),
            ConfigKey.optional("preserve-smb-info", ConfigType.BOOLEAN, "false", "Keep SMB attributes and creation and change times of files and directories (share to share, and attributes from a listing)."),
            ConfigKey.optional("preserve-permissions", ConfigType.BOOLEAN, "false", "Keep permissions (SDDL) share to share: files by Copy File, directories by their security descriptor."),
            ConfigKey.optional("max-requests-per-second", ConfigType.INT, "0", "Cap on requests per second to this share; 0 for no cap.")
                    .withValidator(v -> (Integer) v >= 0, "0 or more"),
            ConfigKey.optional("max-concurrency", ConfigType.INT, "64", "Most requests in flight to this share; throttling lowers it and success raises it back."
                    + " A job with no --concurrency writing to the share runs as many files in flight (bounded by its buffer pool).")
                    .withValidator(v -> (Integer) v >= 1 && (Integer) v <= 1024, "between 1 and 1024"),
            ConfigKey.optional("listing-threads", ConfigType.INT, "16", "Directories listed in parallel when a tree is crawled.")
                    .withValidator(v -> (Integer) v >= 1 && (Integer) v <= 256, "between 1 and 256"));

    private final String scheme;
    private final Function<String, String> environment;

    AzureFilesFactory(String scheme, Function<String, String> environment) {
        this.scheme = scheme;
        this.environment = environment;
    }

    public final String scheme() {
        return scheme;
    }

    public String description() {
        return scheme.equals("https") ? "Azure Files share: https://ACCOUNT.file.core.windows.net/SHARE/PATH[?SAS]" : "Azure Files share: azfiles://ACCOUNT/SHARE/PATH";
    }

    public ConfigSpec configSpec() {
        return SPEC;
    }

    final AzureShare share(EndpointUri uri, PluginConfig config, PluginContext context) {
        return AzureShare.open(AzureLocation.of(uri, config, environment), config, context);
    }

    static final class Sources extends AzureFilesFactory implements SourceFactory {
        Sources(String scheme, Function<String, String> environment) {
            super(scheme, environment);
        }

        @Override
        public Source create(EndpointUri uri, PluginConfig config, PluginContext context) {
            return new AzureFilesSource(share(uri, config, context));
        }
    }

    static final class Sinks extends AzureFilesFactory implements SinkFactory {
        Sinks(String scheme, Function<String, String> environment) {
            super(scheme, environment);
        }

        @Override
        public Sink create(EndpointUri uri, PluginConfig config, PluginContext context) {
            AzureShare share = share(uri, config, context);
            share.createRoot();
            return new AzureFilesSink(share, config);
        }
    }
}
