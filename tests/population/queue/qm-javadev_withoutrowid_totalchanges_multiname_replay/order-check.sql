/* order-check.sql
   Within one order_no, the seq values must be 1-step contiguous and unique.
   Uses LEAD() over each order: next - current must be exactly 1.
     0  -> the same seq twice
     >1 -> one or more seq missing in between                                 */
WITH ordered AS (
    SELECT order_no,
           seq,
           LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS next_seq
      FROM processed
)
SELECT order_no,
       seq,
       next_seq,
       CASE WHEN next_seq = seq THEN 'DUPLICATE' ELSE 'GAP' END AS issue
  FROM ordered
 WHERE next_seq IS NOT NULL
   AND next_seq - seq <> 1
 ORDER BY order_no, seq;
