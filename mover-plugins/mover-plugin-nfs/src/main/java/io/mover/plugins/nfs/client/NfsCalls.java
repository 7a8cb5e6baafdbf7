package io.mover.plugins.nfs.client;

import io.mover.plugins.nfs.rpc.XdrException;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Waiting for a call from an engine thread, with its failure as the {@link MoverException} it carries. */
public final class NfsCalls {
    private NfsCalls() {
    }

    public static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(false);
            throw new MoverException(ErrorCode.CANCELLED, "interrupted while waiting for the NFS server");
        }
        catch (ExecutionException | CompletionException e) {
            throw unwrap(e.getCause());
        }
        catch (CancellationException e) {
            throw new MoverException(ErrorCode.CANCELLED, "the NFS call was cancelled");
        }
    }

    public static MoverException unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof MoverException mover) {
            return new MoverException(mover.code(), mover.getMessage(), mover);
        }
        if (cause instanceof XdrException) {
            return new MoverException(ErrorCode.CONNECTION_LOST, "the NFS server sent a reply that does not decode: " + cause.getMessage(), cause);
        }
        return new MoverException(ErrorCode.INTERNAL, "NFS client failure: " + cause, cause);
    }
}
