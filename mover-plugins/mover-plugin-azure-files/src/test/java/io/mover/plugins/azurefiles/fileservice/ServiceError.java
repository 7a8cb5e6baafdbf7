package io.mover.plugins.azurefiles.fileservice;

/** A File service error: HTTP status, the service's error code (also sent as {@code x-ms-error-code}) and message. */
final class ServiceError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int status;
    final String code;
    final String detail;

    ServiceError(int status, String code, String message) {
        this(status, code, message, null);
    }

    ServiceError(int status, String code, String message, String detail) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.detail = detail;
    }

    static ServiceError notFound(String code) {
        return new ServiceError(404, code, switch (code) {
            case "ShareNotFound" -> "The specified share does not exist.";
            case "ParentNotFound" -> "The specified parent path does not exist.";
            default -> "The specified resource does not exist.";
        });
    }

    static ServiceError badHeader(String header) {
        return new ServiceError(400, "InvalidHeaderValue", "The value for one of the HTTP headers is not in the correct format.", header);
    }

    static ServiceError missingHeader(String header) {
        return new ServiceError(400, "MissingRequiredHeader", "An HTTP header that's mandatory for this request is not specified.", header);
    }

    static ServiceError conflict(String code) {
        return new ServiceError(409, code, switch (code) {
            case "ResourceAlreadyExists" -> "The specified resource already exists.";
            case "ResourceTypeMismatch" -> "The specified resource type does not match the type of the existing resource.";
            case "DirectoryNotEmpty" -> "The specified directory is not empty.";
            case "ShareAlreadyExists" -> "The specified share already exists.";
            default -> "The request conflicts with the current state of the resource.";
        });
    }

    /** The XML body the service sends with an error. */
    String xml(String requestId) {
        String message = getMessage() + "\nRequestId:" + requestId + "\nTime:" + java.time.Instant.now();
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>" + code + "</Code><Message>" + Xml.escape(message) + "</Message>"
                + (detail == null ? "" : code.startsWith("Authentication") ? "<AuthenticationErrorDetail>" + Xml.escape(detail) + "</AuthenticationErrorDetail>"
                        : "<HeaderName>" + Xml.escape(detail) + "</HeaderName>")
                + "</Error>";
    }
}
