package io.mover.jobstore.service;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.mover.core.engine.BenchOptions;

/** A bench job's options ({@code options.bench} of its stored spec) as the store keeps them: in the spec's JSON. */
final class StoredBench {
    private StoredBench() {}

    static Map<String, Object> encode(BenchOptions o) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("mode", o.mode().name());
        json.put("files", o.files());
        json.put("fileSize", o.fileSize());
        json.put("data", o.data());
        json.put("concurrencies", o.concurrencies());
        json.put("keep", o.keep());
        json.put("folder", o.folder());
        json.put("ioSize", o.ioSize());
        json.put("queueDepths", o.queueDepths());
        json.put("runtimeMillis", o.runtime().toMillis());
        json.put("writeBlockSizes", o.writeBlockSizes());
        json.put("streams", o.streams());
        json.put("codecs", o.codecs());
        return json;
    }

    /** Specs of other kinds, and those stored before benches were jobs, have none: the defaults. */
    @SuppressWarnings("unchecked")
    static BenchOptions decode(Map<String, Object> json) {
        if (json == null) {
            return BenchOptions.DEFAULTS;
        }
        return new BenchOptions(BenchOptions.Mode.valueOf((String) json.get("mode")), (Long) json.get("files"), (Long) json.get("fileSize"),
                (String) json.get("data"), ints(json.get("concurrencies")), (Boolean) json.get("keep"), (String) json.get("folder"),
                (Long) json.get("ioSize"), ints(json.get("queueDepths")), Duration.ofMillis((Long) json.get("runtimeMillis")),
                (List<Long>) json.get("writeBlockSizes"), ints(json.get("streams")), (List<String>) json.get("codecs"));
    }

    /** Json reads every integer as a Long. */
    @SuppressWarnings("unchecked")
    private static List<Integer> ints(Object value) {
        return ((List<Long>) value).stream().map(Long::intValue).toList();
    }
}
