/* order-check.sql
   One row per order_no whose seqs are not a clean run:
   - duplicate : more rows than distinct seqs
   - missing   : the span MIN..MAX is wider than the number of distinct seqs */
SELECT order_no,
       COUNT(*)                     AS n_rows,
       COUNT(DISTINCT seq)          AS n_seq,
       MIN(seq)                     AS first_seq,
       MAX(seq)                     AS last_seq,
       TRIM(CASE WHEN COUNT(*) > COUNT(DISTINCT seq) THEN 'duplicate ' ELSE '' END ||
            CASE WHEN MAX(seq) - MIN(seq) + 1 > COUNT(DISTINCT seq) THEN 'missing' ELSE '' END)
                                    AS problem
FROM processed
GROUP BY order_no
HAVING COUNT(*) > COUNT(DISTINCT seq)
    OR MAX(seq) - MIN(seq) + 1 > COUNT(DISTINCT seq)
ORDER BY order_no;
