package dev.tierproof.core;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/** The Flink, Paimon and Fluss versions this build resolved (filled in by Maven). */
public final class Versions {
    private Versions() {}

    public static Map<String, String> all() {
        Properties p = new Properties();
        try (InputStream in = Versions.class.getClassLoader().getResourceAsStream("tierproof-versions.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new TierproofException("could not read tierproof-versions.properties", e);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String k : new String[] {"flink", "paimon", "fluss"}) {
            out.put(k, p.getProperty(k, "unknown"));
        }
        return out;
    }
}
