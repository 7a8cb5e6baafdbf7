package io.mover.plugins.azurefiles;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;

/**
 * Tells the share of every request that may change it (anything but GET and HEAD), before it is sent: what the
 * share kept of an earlier listing ({@link AzureShare}'s page of the root) is then out of date.
 */
final class Writes extends HttpPipelineSyncPolicy {
    private final Runnable onWrite;

    Writes(Runnable onWrite) {
        this.onWrite = onWrite;
    }

    @Override
    protected void beforeSendingRequest(HttpPipelineCallContext context) {
        HttpMethod method = context.getHttpRequest().getHttpMethod();
        if (method != HttpMethod.GET && method != HttpMethod.HEAD) {
            onWrite.run();
        }
    }
}
