package io.mover.server.node.web;

import java.time.Instant;
import java.util.List;

import io.mover.core.service.JobService;
import io.mover.core.service.NodeView;
import io.mover.server.dataport.DataPort;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static java.util.Objects.requireNonNull;

/** {@code GET /api/v1/nodes}: the movers sharing this server's job store, which of them is alive, which one answers. */
@RestController
public class NodeController {
    private final JobService jobs;
    private final DataPort dataPort;

    public NodeController(JobService jobs, DataPort dataPort) {
        this.jobs = requireNonNull(jobs, "jobs is null");
        this.dataPort = requireNonNull(dataPort, "dataPort is null");
    }

    @GetMapping(path = "/api/v1/nodes", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<List<NodeResponse>> nodes() {
        // the store is read with blocking JDBC: off the event loop
        return Mono.fromCallable(() -> {
            Instant now = Instant.now();
            return jobs.nodes().stream().map(node -> NodeResponse.of(node, now, node.self() ? dataPort.view().orElse(null) : null)).toList();
        }).subscribeOn(Schedulers.boundedElastic());
    }

    /**
     * One node.
     *
     * @param state {@code up}, or {@code gone} when silent for three heartbeats (a stopped or dead mover; its
     *        units are revived by the others)
     * @param self whether this node answered
     * @param dataPort this node's data port when it runs one ({@code mover.data-port.enabled}); null otherwise,
     *        and for the other nodes (not known here)
     */
    public record NodeResponse(String id, String host, Instant started, Instant heartbeat, String state, boolean self, DataPort.View dataPort) {
        static NodeResponse of(NodeView node, Instant now, DataPort.View dataPort) {
            return new NodeResponse(node.id(), node.host(), node.started(), node.heartbeat(), node.alive(now) ? "up" : "gone", node.self(), dataPort);
        }
    }
}
