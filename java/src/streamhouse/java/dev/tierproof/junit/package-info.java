/**
 * The JUnit 5 extension and AssertJ assertions users' tests take a streamhouse from.
 * Floor 9: imports search and below.
 */
package dev.tierproof.junit;
