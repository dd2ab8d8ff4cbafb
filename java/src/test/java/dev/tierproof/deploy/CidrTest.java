package dev.tierproof.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A cluster's subnet is free only when no route or address of the machine overlaps it. */
@Tag("quick")
class CidrTest {
    @Test
    void aCoveringRouteOrAnAddressInsideTakesTheSubnet() {
        List<long[]> taken = Cidr.taken("10.233.0.0/18 via 192.168.1.1 dev eth0\n"
                + "2: eth0    inet 172.17.0.5/16 brd 172.17.255.255 scope global eth0\n"
                + "local 127.0.0.1 dev lo table local proto kernel scope host src 127.0.0.1");
        assertThat(Cidr.overlaps(taken, "10.233.5.0/24")).as("inside a /18 route").isTrue();
        assertThat(Cidr.overlaps(taken, "10.233.64.0/24")).as("past the /18").isFalse();
        assertThat(Cidr.overlaps(taken, "172.17.3.0/24")).as("inside an address's /16").isTrue();
        assertThat(Cidr.overlaps(Cidr.taken("default via 10.0.0.1 dev eth0"), "10.233.1.0/24"))
                .as("a gateway address alone takes itself only").isFalse();
        assertThat(Cidr.overlaps(Cidr.taken("10.0.0.0/8 dev tun0"), "10.233.200.0/24")).isTrue();
    }
}
