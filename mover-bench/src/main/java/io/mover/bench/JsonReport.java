package io.mover.bench;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** The report for scripts: {@link BenchReport} as one JSON object, every field present ({@code null} when a mode has none). */
public final class JsonReport {
    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private JsonReport() {}

    public static String of(BenchReport report) {
        return MAPPER.writeValueAsString(report);
    }

    /** A report as {@link #of} wrote it (the server keeps reports as this JSON and renders HTML from it). */
    public static BenchReport parse(String json) {
        return MAPPER.readValue(json, BenchReport.class);
    }
}
