package io.mover.server.schedule;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.mover.jobstore.schedule.ScheduleView;
import io.mover.jobstore.service.SyncSchedules;
import org.springframework.stereotype.Component;

import static java.util.Objects.requireNonNull;

/**
 * One gauge per schedule: {@code mover_schedule_rpo_seconds{schedule, schedule_id}}, now minus the start of its last
 * successful run (read from the job store at each scrape), and {@code mover_schedule_rpo_target_seconds} when it has a
 * target, so an alert rule can compare the two. The set of gauges follows the schedules when they are created,
 * changed, deleted or listed through this server.
 */
@Component
public class ScheduleMetrics {
    private final SyncSchedules schedules;
    private final MeterRegistry registry;
    /** Per schedule id: its name and target when registered, and its meters. */
    private final Map<String, Registered> registered = new HashMap<>();

    private record Registered(String name, Duration target, List<Meter> meters) {
    }

    public ScheduleMetrics(SyncSchedules schedules, MeterRegistry registry) {
        this.schedules = requireNonNull(schedules, "schedules is null");
        this.registry = requireNonNull(registry, "registry is null");
        refresh();
    }

    /** Registers the gauges of new schedules (and of renamed ones again), removes those of deleted ones. */
    public synchronized void refresh() {
        List<ScheduleView> views = schedules.list();
        Set<String> ids = views.stream().map(view -> view.schedule().id()).collect(Collectors.toSet());
        registered.entrySet().removeIf(entry -> {
            if (ids.contains(entry.getKey())) {
                return false;
            }
            entry.getValue().meters().forEach(registry::remove);
            return true;
        });
        for (ScheduleView view : views) {
            String id = view.schedule().id();
            String name = view.schedule().name();
            Duration target = view.schedule().definition().rpoTarget().orElse(null);
            Registered current = registered.get(id);
            if (current != null && current.name().equals(name) && java.util.Objects.equals(current.target(), target)) {
                continue;
            }
            if (current != null) {
                current.meters().forEach(registry::remove);
            }
            registered.put(id, new Registered(name, target, register(id, name, target)));
        }
    }

    private List<Meter> register(String id, String name, Duration target) {
        Gauge achieved = Gauge.builder("mover.schedule.rpo", schedules, service -> service.rpoAchieved(id).map(ScheduleMetrics::seconds).orElse(Double.NaN))
                .tag("schedule", name).tag("schedule_id", id).baseUnit("seconds").strongReference(true)
                .description("Now minus the start of the schedule's last successful run (its recovery point)").register(registry);
        if (target == null) {
            return List.of(achieved);
        }
        Gauge promised = Gauge.builder("mover.schedule.rpo.target", () -> seconds(target)).tag("schedule", name).tag("schedule_id", id)
                .baseUnit("seconds").strongReference(true).description("The schedule's RPO target").register(registry);
        return List.of(achieved, promised);
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }
}
