package io.mover.core.engine;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * A hard cap on the memory blocks use: a fixed number of slots, each a direct buffer for raw bytes
 * and, when a codec is used, one for encoded bytes. Slots are allocated on first use and reused;
 * a thread that finds none free waits, which is how a slow stage pushes back on the others.
 */
public final class BufferPool {
    private final int rawCapacity;
    private final int encodedCapacity;
    private final int slots;
    private final Semaphore available;
    private final ConcurrentLinkedQueue<Slot> free = new ConcurrentLinkedQueue<>();

    public BufferPool(long capBytes, int rawCapacity, int encodedCapacity) {
        this.rawCapacity = rawCapacity;
        this.encodedCapacity = encodedCapacity;
        long perSlot = (long) rawCapacity + encodedCapacity;
        this.slots = (int) Math.max(2, Math.min(Integer.MAX_VALUE, capBytes / perSlot));
        this.available = new Semaphore(slots);
    }

    public int slots() {
        return slots;
    }

    /** Slots in use now. */
    public int inUse() {
        return slots - available.availablePermits();
    }

    public Slot acquire() {
        try {
            available.acquire();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "interrupted while waiting for a buffer", e);
        }
        Slot slot = free.poll();
        if (slot == null) {
            slot = new Slot(ByteBuffer.allocateDirect(rawCapacity), encodedCapacity == 0 ? null : ByteBuffer.allocateDirect(encodedCapacity));
        }
        slot.raw.clear();
        EngineStats.buffersAcquired(slotBytes());
        return slot;
    }

    public void release(Slot slot) {
        EngineStats.buffersReleased(slotBytes());
        free.add(slot);
        available.release();
    }

    private long slotBytes() {
        return (long) rawCapacity + encodedCapacity;
    }

    /** The buffers of one block in flight. */
    public record Slot(ByteBuffer raw, ByteBuffer encoded) {}
}
