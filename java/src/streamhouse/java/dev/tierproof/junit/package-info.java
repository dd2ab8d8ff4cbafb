/**
 * The JUnit 5 extension and AssertJ assertions users' tests take a streamhouse from.
 * Floor 8: imports audit and below.
 */
package dev.tierproof.junit;
