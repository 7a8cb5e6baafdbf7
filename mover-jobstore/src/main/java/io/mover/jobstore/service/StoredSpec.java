package io.mover.jobstore.service;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.OverwritePolicy;
import io.mover.core.engine.SymlinkPolicy;
import io.mover.core.engine.SyncOptions;
import io.mover.core.engine.TransferOptions;
import io.mover.core.plugin.PluginRegistry;
import io.mover.core.service.JobUpdate;
import io.mover.spi.ConfigKey;
import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * A job spec as the store keeps it: JSON without secrets. Secret config values are dropped; those a named
 * credential holds come back from the credential when the job runs again. A spec whose other secrets were
 * given inline is marked, so that after a restart (when they are gone) the job fails with a clear reason.
 */
final class StoredSpec {
    /**
     * Marks options whose concurrency the user did not set (the endpoints may suggest one). A flag beside the number,
     * not a missing number: a job stored before it existed, with 16, stays 16 (set), and a node of an older version
     * reading a newer job finds the number it always did (the default, 16).
     */
    private static final String CONCURRENCY_NOT_SET = "concurrencyNotSet";
    private final PluginRegistry registry;
    private final Function<String, Optional<Map<String, String>>> credentials;

    StoredSpec(PluginRegistry registry, Function<String, Optional<Map<String, String>>> credentials) {
        this.registry = registry;
        this.credentials = credentials;
    }

    /** The spec's JSON, secrets dropped. */
    String encode(JobSpec spec) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("v", 1L);
        json.put("kind", spec.kind().name());
        json.put("source", withoutQuery(spec.source()));
        json.put("destination", withoutQuery(spec.destination()));
        Map<String, String> sourceConfig = withoutSecrets(spec.sourceConfig(), scheme(spec.source()), true);
        Map<String, String> destinationConfig = withoutSecrets(spec.destinationConfig(), scheme(spec.destination()), false);
        json.put("sourceConfig", sourceConfig);
        json.put("destinationConfig", destinationConfig);
        spec.sourceCredential().ifPresent(name -> json.put("sourceCredential", name));
        spec.destinationCredential().ifPresent(name -> json.put("destinationCredential", name));
        spec.scheduleId().ifPresent(id -> json.put("scheduleId", id));
        boolean inline = inlineSecrets(spec.sourceConfig(), sourceConfig, spec.sourceCredential())
                || inlineSecrets(spec.destinationConfig(), destinationConfig, spec.destinationCredential())
                || !withoutQuery(spec.source()).equals(spec.source()) || !withoutQuery(spec.destination()).equals(spec.destination());
        json.put("inlineSecrets", inline);
        Map<String, Object> options = options(spec.options());
        if (spec.kind() == JobKind.BENCH) {
            options.put("bench", StoredBench.encode(spec.options().bench()));
        }
        json.put("options", options);
        return Json.write(json);
    }

    /**
     * The stored JSON with the settings a running job was given ({@code PATCH}); the rest, the inline-secrets
     * flag included, stays as it was stored, so a job that cannot run after a restart still says so.
     */
    static String updated(String jsonText, JobUpdate update) {
        Map<String, Object> json = map(Json.parse(jsonText));
        Map<String, Object> options = new LinkedHashMap<>(map(json.get("options")));
        update.concurrency().ifPresent(value -> {
            options.put("concurrency", (long) value);
            options.remove(CONCURRENCY_NOT_SET);
        });
        update.bandwidthCapBytesPerSecond().ifPresent(value -> options.put("bandwidthCap", value));
        Map<String, Object> changed = new LinkedHashMap<>(json);
        changed.put("options", options);
        return Json.write(changed);
    }

    /**
     * The first field of {@code spec} holding a secret that only memory would keep (an inline secret config value, a
     * location's query), as {@code sourceConfig.KEY}, {@code source}...; empty when a stored copy can run it again.
     */
    Optional<String> inlineSecretField(JobSpec spec) {
        Map<String, String> sourceKept = withoutSecrets(spec.sourceConfig(), scheme(spec.source()), true);
        Map<String, String> destinationKept = withoutSecrets(spec.destinationConfig(), scheme(spec.destination()), false);
        Map<String, String> sourceCredential = spec.sourceCredential().flatMap(credentials).orElse(Map.of());
        Map<String, String> destinationCredential = spec.destinationCredential().flatMap(credentials).orElse(Map.of());
        Optional<String> field = spec.sourceConfig().keySet().stream().sorted()
                .filter(key -> !sourceKept.containsKey(key) && !sourceCredential.containsKey(key)).findFirst().map(key -> "sourceConfig." + key)
                .or(() -> spec.destinationConfig().keySet().stream().sorted()
                        .filter(key -> !destinationKept.containsKey(key) && !destinationCredential.containsKey(key)).findFirst()
                        .map(key -> "destinationConfig." + key));
        if (field.isPresent()) {
            return field;
        }
        if (!withoutQuery(spec.source()).equals(spec.source())) {
            return Optional.of("source");
        }
        return withoutQuery(spec.destination()).equals(spec.destination()) ? Optional.empty() : Optional.of("destination");
    }

    /** A URI location without its query: a query can hold credentials (an Azure SAS), which are never stored. */
    private static String withoutQuery(String location) {
        int query = location.indexOf('?');
        return location.contains("://") && query >= 0 ? location.substring(0, query) : location;
    }

    /** True when the spec's secrets are inline: after a restart the stored spec cannot run the job. */
    static boolean hasInlineSecrets(String json) {
        return Boolean.TRUE.equals(map(Json.parse(json)).get("inlineSecrets"));
    }

    /** The spec back, credentials resolved again; fails when its inline secrets are gone. */
    JobSpec decode(String jsonText, String jobId) {
        Map<String, Object> json = map(Json.parse(jsonText));
        if (Boolean.TRUE.equals(json.get("inlineSecrets"))) {
            throw new MoverException(ErrorCode.INVALID_CONFIG, "job " + jobId + " was given secrets inline, which are kept only in memory"
                    + " and were lost when the server restarted: resubmit it or use a named credential");
        }
        return display(jsonText, true);
    }

    /** The spec as stored, for showing (secrets absent); with {@code resolve}, credentials merged back. */
    JobSpec display(String jsonText, boolean resolve) {
        Map<String, Object> json = map(Json.parse(jsonText));
        Optional<String> sourceCredential = Optional.ofNullable((String) json.get("sourceCredential"));
        Optional<String> destinationCredential = Optional.ofNullable((String) json.get("destinationCredential"));
        Map<String, String> sourceConfig = strings(json.get("sourceConfig"));
        Map<String, String> destinationConfig = strings(json.get("destinationConfig"));
        if (resolve) {
            sourceConfig = merged(sourceCredential, sourceConfig);
            destinationConfig = merged(destinationCredential, destinationConfig);
        }
        return new JobSpec(JobKind.valueOf((String) json.get("kind")), (String) json.get("source"), (String) json.get("destination"),
                sourceConfig, destinationConfig, options(map(json.get("options"))), sourceCredential, destinationCredential,
                Optional.ofNullable((String) json.get("scheduleId")));
    }

    private Map<String, String> merged(Optional<String> credential, Map<String, String> config) {
        if (credential.isEmpty()) {
            return config;
        }
        Map<String, String> all = new HashMap<>(credentials.apply(credential.get()).orElseThrow(() -> new MoverException(ErrorCode.INVALID_CONFIG,
                "credential '" + credential.get() + "' is no longer configured on this server; configure it or resubmit the job")));
        all.putAll(config);
        return all;
    }

    private boolean inlineSecrets(Map<String, String> given, Map<String, String> kept, Optional<String> credential) {
        Map<String, String> fromCredential = credential.flatMap(credentials).orElse(Map.of());
        return given.keySet().stream().anyMatch(key -> !kept.containsKey(key) && !fromCredential.containsKey(key));
    }

    /** Keys the plugin declares secret, and keys it does not know (which may be anything), are dropped. */
    private Map<String, String> withoutSecrets(Map<String, String> config, String scheme, boolean source) {
        Map<String, String> kept = new LinkedHashMap<>();
        config.forEach((key, value) -> {
            Optional<ConfigKey> declared = source ? registry.findSource(scheme).flatMap(f -> f.configSpec().key(key))
                    : sinkKey(scheme, key);
            if (declared.isPresent() && !declared.get().secret()) {
                kept.put(key, value);
            }
        });
        return kept;
    }

    private Optional<ConfigKey> sinkKey(String scheme, String key) {
        try {
            return registry.sink(scheme).configSpec().key(key);
        }
        catch (MoverException e) {
            return Optional.empty();
        }
    }

    private static String scheme(String location) {
        return EndpointUri.parse(location).scheme();
    }

    private static Map<String, Object> options(TransferOptions o) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("concurrency", (long) o.concurrency());
        if (!o.concurrencySet()) {
            json.put(CONCURRENCY_NOT_SET, true);
        }
        json.put("blockSize", (long) o.blockSize());
        json.put("largeFileThreshold", o.largeFileThreshold());
        json.put("rangeSize", o.rangeSize());
        json.put("includes", o.includes());
        json.put("excludes", o.excludes());
        json.put("overwrite", o.overwrite().name());
        json.put("symlinks", o.symlinks().name());
        json.put("codec", o.codec());
        json.put("dryRun", o.dryRun());
        json.put("verify", o.verify());
        json.put("maxRetries", (long) o.maxRetries());
        json.put("retryBackoffMillis", o.retryBackoff().toMillis());
        json.put("bufferPoolBytes", o.bufferPoolBytes());
        json.put("progressIntervalMillis", o.progressInterval().toMillis());
        json.put("bandwidthCap", o.bandwidthCap());
        json.put("sync", sync(o.sync()));
        return json;
    }

    private static Map<String, Object> sync(SyncOptions o) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("deletes", o.deletes().name());
        json.put("maxDelete", o.maxDelete());
        json.put("compare", o.compare().name());
        json.put("force", o.force());
        o.filesFrom().ifPresent(file -> json.put("filesFrom", file));
        json.put("minSize", o.minSize());
        json.put("maxSize", o.maxSize());
        o.minAge().ifPresent(age -> json.put("minAgeMillis", age.toMillis()));
        o.maxAge().ifPresent(age -> json.put("maxAgeMillis", age.toMillis()));
        if (o.catalog()) {
            json.put("catalog", true);
        }
        return json;
    }

    /** Specs stored before sync existed have no "sync": the defaults. */
    private static SyncOptions sync(Map<String, Object> json) {
        if (json == null) {
            return SyncOptions.DEFAULTS;
        }
        return new SyncOptions(SyncOptions.DeleteMode.valueOf((String) json.get("deletes")), number(json, "maxDelete"),
                SyncOptions.ComparePolicy.valueOf((String) json.get("compare")), (Boolean) json.get("force"),
                Optional.ofNullable((String) json.get("filesFrom")), number(json, "minSize"), number(json, "maxSize"),
                Optional.ofNullable(number(json, "minAgeMillis")).map(Duration::ofMillis),
                Optional.ofNullable(number(json, "maxAgeMillis")).map(Duration::ofMillis), Boolean.TRUE.equals(json.get("catalog")));
    }

    @SuppressWarnings("unchecked")
    private static TransferOptions options(Map<String, Object> json) {
        TransferOptions.Builder builder = TransferOptions.builder();
        if (Boolean.TRUE.equals(json.get(CONCURRENCY_NOT_SET))) {
            builder.concurrencyNotSet();
        }
        else {
            builder.concurrency(number(json, "concurrency").intValue());
        }
        return builder
                .blockSize(number(json, "blockSize").intValue())
                .largeFiles(number(json, "largeFileThreshold"), number(json, "rangeSize"))
                .includes((List<String>) (List<?>) json.get("includes"))
                .excludes((List<String>) (List<?>) json.get("excludes"))
                .overwrite(OverwritePolicy.valueOf((String) json.get("overwrite")))
                .symlinks(SymlinkPolicy.valueOf((String) json.get("symlinks")))
                .codec((String) json.get("codec"))
                .dryRun((Boolean) json.get("dryRun"))
                .verify((Boolean) json.get("verify"))
                .retries(number(json, "maxRetries").intValue(), Duration.ofMillis(number(json, "retryBackoffMillis")))
                .bufferPoolBytes(number(json, "bufferPoolBytes"))
                .progressInterval(Duration.ofMillis(number(json, "progressIntervalMillis")))
                .bandwidthCap(number(json, "bandwidthCap"))
                .sync(sync(map(json.get("sync"))))
                .bench(StoredBench.decode(map(json.get("bench"))))
                .build();
    }

    private static Long number(Map<String, Object> json, String key) {
        return (Long) json.get(key);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> strings(Object value) {
        return value == null ? Map.of() : (Map<String, String>) value;
    }
}
