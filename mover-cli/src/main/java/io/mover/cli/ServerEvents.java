package io.mover.cli;

import java.util.function.Consumer;

import io.mover.cli.ServerOptions.ServerTarget;
import io.mover.server.job.web.JobResponse;
import io.mover.server.job.web.JobResponse.ProgressResponse;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import static java.util.Objects.requireNonNull;

/**
 * A job's event stream ({@code GET /api/v1/jobs/{id}/events}) through Spring's WebClient, whose SSE
 * decoder handles the framing (multi-line data, comments, keep-alives). Only copy and watch load it:
 * Reactor Netty costs start time that one-shot commands should not pay.
 */
final class ServerEvents {
    private static final ParameterizedTypeReference<ServerSentEvent<String>> EVENT = new ParameterizedTypeReference<>() {};

    private final ServerTarget target;
    private final WebClient web;

    ServerEvents(ServerTarget target) {
        this.target = requireNonNull(target, "target is null");
        this.web = WebClient.builder()
                .baseUrl(target.base().toString())
                .defaultHeaders(headers -> target.token().ifPresent(headers::setBearerAuth))
                .build();
    }

    /**
     * Blocks until the stream ends: normally right after the state event of a terminal state. Returns
     * the last job seen, which may not have ended if the connection broke; the caller decides.
     */
    JobResponse follow(String id, Consumer<JobResponse> onState, Consumer<ProgressResponse> onProgress) {
        JobResponse[] last = new JobResponse[1];
        try {
            web.get()
                    .uri("/api/v1/jobs/{id}/events", id)
                    .accept(MediaType.TEXT_EVENT_STREAM)
                    .retrieve()
                    .bodyToFlux(EVENT)
                    .doOnNext(event -> {
                        if (event.data() == null || event.event() == null) {
                            return; // a keep-alive comment
                        }
                        switch (event.event()) {
                            case "state" -> {
                                JobResponse job = readJob(id, event.data());
                                last[0] = job;
                                onState.accept(job);
                            }
                            case "progress" -> onProgress.accept(ServerClient.JSON.readValue(event.data(), ProgressResponse.class));
                            default -> {
                                // an event type a newer server added: not ours to show
                            }
                        }
                    })
                    .blockLast();
        }
        catch (WebClientResponseException e) {
            throw ServerErrors.of(target.base(), e.getStatusCode().value(), e.getResponseBodyAsString());
        }
        catch (WebClientRequestException e) {
            throw ServerErrors.unreachable(target.base(), e);
        }
        catch (MoverException e) {
            throw e;
        }
        catch (RuntimeException e) {
            // the connection closed mid-stream (a restarted server, a proxy): the follower asks the job how it is
            throw new MoverException(ErrorCode.CONNECTION_LOST, "the event stream of job " + id + " broke: " + e.getMessage(), e);
        }
        return last[0];
    }

    /** The server ends the stream of a job it forgot (evicted while watched) with a bare state event. */
    private static JobResponse readJob(String id, String data) {
        if (!data.strip().startsWith("{")) {
            throw new MoverException(ErrorCode.NOT_FOUND, "the server forgot job " + id + " while it was watched (too many ended jobs)");
        }
        return ServerClient.JSON.readValue(data, JobResponse.class);
    }
}
