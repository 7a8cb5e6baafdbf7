package io.mover.plugins.azurefiles.fileservice;

import java.util.Set;

/** The REST API versions of the File service the double answers; like the service, others are refused with 400. */
final class ApiVersions {
    private static final Set<String> KNOWN = Set.of("2019-02-02", "2019-07-07", "2019-12-12", "2020-02-10", "2020-04-08", "2020-06-12",
            "2020-08-04", "2020-10-02", "2020-12-06", "2021-02-12", "2021-04-10", "2021-06-08", "2021-08-06", "2021-10-04", "2021-12-02",
            "2022-11-02", "2023-01-03", "2023-05-03", "2023-08-03", "2023-11-03", "2024-02-04", "2024-05-04", "2024-08-04", "2024-11-04",
            "2025-01-05", "2025-05-05", "2025-07-05", "2025-11-05", "2026-02-06", "2026-10-06");

    private ApiVersions() {}

    static boolean known(String version) {
        return KNOWN.contains(version);
    }
}
