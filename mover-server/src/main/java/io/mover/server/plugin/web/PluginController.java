package io.mover.server.plugin.web;

import java.util.List;

import io.mover.core.plugin.PluginDescriptor;
import io.mover.core.service.JobService;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import static java.util.Objects.requireNonNull;

/** {@code GET /api/v1/plugins}: the installed plugins and what each reads, writes and encodes. */
@RestController
public class PluginController {
    private final JobService jobs;

    public PluginController(JobService jobs) {
        this.jobs = requireNonNull(jobs, "jobs is null");
    }

    @GetMapping(path = "/api/v1/plugins", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<List<PluginResponse>> plugins() {
        return Mono.fromSupplier(() -> jobs.plugins().stream().map(PluginResponse::of).toList());
    }

    /**
     * One plugin.
     *
     * @param location {@code classpath} or the directory it was loaded from
     * @param sources URI schemes it reads
     * @param sinks URI schemes it writes
     * @param codecs codec names it provides
     */
    public record PluginResponse(String name, String version, String location, List<String> sources, List<String> sinks,
            List<String> codecs) {
        static PluginResponse of(PluginDescriptor d) {
            return new PluginResponse(d.name(), d.version(), d.location(), d.sources(), d.sinks(), d.codecs());
        }
    }
}
