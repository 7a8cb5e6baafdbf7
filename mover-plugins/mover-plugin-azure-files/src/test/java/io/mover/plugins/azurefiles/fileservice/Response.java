package io.mover.plugins.azurefiles.fileservice;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** A response: status, headers, and a body written (and paced by the bandwidth limit) when sent. */
record Response(int status, Map<String, String> headers, long length, Body body) {
    interface Body {
        void write(OutputStream out, Faults faults) throws IOException;
    }

    static Response of(int status) {
        return new Response(status, new LinkedHashMap<>(), 0, null);
    }

    static Response xml(int status, String xml) {
        byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
        Response response = new Response(status, new LinkedHashMap<>(), bytes.length, (out, faults) -> {
            faults.transfer(bytes.length);
            out.write(bytes);
        });
        response.headers.put("Content-Type", "application/xml");
        return response;
    }

    static Response error(ServiceError error, String requestId) {
        Response response = xml(error.status, error.xml(requestId));
        response.headers.put("x-ms-error-code", error.code);
        return response;
    }

    Response with(String name, String value) {
        headers.put(name, value);
        return this;
    }
}
