package io.mover.jobstore;

/**
 * Work units by state, and how often they were claimed (for metrics).
 *
 * @param pending units not yet begun
 * @param running units being run
 * @param done units committed
 * @param claims attempts begun over all units (the sum of their epochs)
 * @param revivals attempts that took a unit over from an earlier holder (attempts beyond each unit's first)
 */
public record UnitCounts(long pending, long running, long done, long claims, long revivals) {
}
