package dev.tierproof.util;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;

/** Asking a server that is still starting, again and again within a deadline, until it answers as wanted. */
public final class HttpPoll {
    private HttpPoll() {}

    /**
     * Sends {@code request} every 300 ms until {@code wanted} accepts the answer; returns null
     * then, or the last answer (or connection error) when {@code deadline} has passed.
     */
    public static String until(HttpRequest request, Predicate<HttpResponse<String>> wanted, Duration deadline)
            throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long end = System.nanoTime() + deadline.toNanos();
        String last = "no answer";
        while (System.nanoTime() < end) {
            try {
                HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (wanted.test(r)) {
                    return null;
                }
                last = "HTTP " + r.statusCode() + ": " + r.body();
            } catch (IOException notYet) {
                last = notYet.toString();
            }
            Thread.sleep(300);
        }
        return last;
    }

    /** A request with a 5 s timeout of its own. */
    public static HttpRequest.Builder to(String uri) {
        return HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(5));
    }
}
