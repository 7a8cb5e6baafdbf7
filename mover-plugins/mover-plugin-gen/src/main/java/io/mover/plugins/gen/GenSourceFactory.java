package io.mover.plugins.gen;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import io.mover.spi.ConfigKey;
import io.mover.spi.ConfigSpec;
import io.mover.spi.ConfigType;
import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.Secret;
import io.mover.spi.Source;
import io.mover.spi.SourceFactory;

/**
 * {@code gen://?files=N&size=S&total=T&fanout=F&data=KIND&seed=N}: the parameters come from the URI's
 * query or from the source configuration (a key in both is refused). No key has a default in the
 * spec, so that what the user gave can be told from what was assumed; {@link GenSpec#of} applies them.
 */
public final class GenSourceFactory implements SourceFactory {
    private static final ConfigSpec SPEC = ConfigSpec.of(
            ConfigKey.optional("files", ConfigType.LONG, "How many files (default 1000, or what size and total imply).")
                    .withValidator(v -> (Long) v >= 0 && (Long) v <= GenSpec.MAX_FILES, "between 0 and " + GenSpec.MAX_FILES),
            ConfigKey.optional("size", ConfigType.SIZE, "Bytes per file, such as 100KiB (default 1MiB).")
                    .withValidator(v -> (Long) v >= 0, "a size of 0 or more"),
            ConfigKey.optional("total", ConfigType.SIZE, "Bytes in all; with files or size, the other follows.")
                    .withValidator(v -> (Long) v >= 0, "a size of 0 or more"),
            ConfigKey.optional("fanout", ConfigType.INT, "At most this many entries per directory; deeper folders are made as needed (default 1000).")
                    .withValidator(v -> (Integer) v >= 2 && (Integer) v <= 1_000_000, "between 2 and 1000000"),
            ConfigKey.optional("data", ConfigType.STRING, "zeros, random, text or mixed: how compressible the bytes are (default random).")
                    .withValidator(v -> isKind((String) v), "one of zeros, random, text, mixed"),
            ConfigKey.optional("seed", ConfigType.LONG, "Another seed gives other bytes; the same seed always the same (default 0)."));

    @Override
    public String scheme() {
        return "gen";
    }

    @Override
    public String description() {
        return "generated data for benchmarks and tests (gen://?files=1000&size=1MiB&data=random)";
    }

    @Override
    public ConfigSpec configSpec() {
        return SPEC;
    }

    @Override
    public Source create(EndpointUri uri, PluginConfig config, PluginContext context) {
        if (!uri.authority().isEmpty() || !(uri.path().isEmpty() || uri.path().equals("/"))) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "gen:// locations take no host or path, only a query such as "
                    + "gen://?files=1000&size=1MiB; got " + uri);
        }
        PluginConfig query = SPEC.parse(queryOf(uri));
        for (String key : query.asMap().keySet()) {
            if (config.asMap().containsKey(key)) {
                throw new MoverException(ErrorCode.INVALID_CONFIG, "gen:// parameter '" + key + "' is given both in the URI and in the configuration; give it once");
            }
        }
        Map<String, Object> merged = new LinkedHashMap<>(config.asMap());
        merged.putAll(query.asMap());
        try {
            return new GenSource(GenSpec.of((Long) merged.get("files"), (Long) merged.get("size"), (Long) merged.get("total"),
                    (Integer) merged.getOrDefault("fanout", 1000), DataKind.parse((String) merged.getOrDefault("data", "random")),
                    (Long) merged.getOrDefault("seed", 0L)));
        }
        catch (IllegalArgumentException e) {
            throw new MoverException(ErrorCode.INVALID_CONFIG, "gen://: " + e.getMessage());
        }
    }

    /** The query's {@code key=value} pairs, percent-decoded; a key without a value is refused by the spec as empty. */
    static Map<String, String> queryOf(EndpointUri uri) {
        Map<String, String> values = new LinkedHashMap<>();
        String query = uri.query().map(Secret::reveal).orElse("");
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            if (values.put(key, value) != null) {
                throw new MoverException(ErrorCode.INVALID_CONFIG, "gen:// parameter '" + key + "' is given twice in the URI");
            }
        }
        return values;
    }

    private static boolean isKind(String text) {
        try {
            DataKind.parse(text);
            return true;
        }
        catch (IllegalArgumentException e) {
            return false;
        }
    }
}
