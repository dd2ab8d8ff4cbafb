/**
 * A read-only check of a live Fluss table tierproof did not create.
 * Floor 7: imports fluss and below; never proof, search, matrix or anything above.
 */
package dev.tierproof.audit;
