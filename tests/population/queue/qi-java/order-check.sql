/*
 * order-check.sql
 * Finds orders whose sequence numbers are not 1..n style consecutive:
 *   DUPLICATE_SEQ : the same seq appears more than once in an order
 *   MISSING_SEQ   : max(seq) - min(seq) + 1 is bigger than the number of distinct seqs
 */
SELECT order_no,
       'DUPLICATE_SEQ' AS problem_type,
       seq             AS detail
FROM   processed
GROUP  BY order_no, seq
HAVING COUNT(*) > 1

UNION ALL

SELECT order_no,
       'MISSING_SEQ'   AS problem_type,
       (MAX(seq) - MIN(seq) + 1) - COUNT(DISTINCT seq) AS detail
FROM   processed
GROUP  BY order_no
HAVING MAX(seq) - MIN(seq) + 1 <> COUNT(DISTINCT seq);
