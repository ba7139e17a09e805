-- order-check.sql : seq problems inside one order_no. clean ledger -> 0 rows
-- (no window functions: old MySQL 5.x habit)

-- same seq twice in an order
SELECT order_no, seq, 'dup' AS problem
  FROM processed
 GROUP BY order_no, seq
HAVING COUNT(*) > 1

UNION ALL

-- hole: a seq below the order's max whose next number is not there
SELECT p.order_no, p.seq + 1, 'missing'
  FROM processed p
 WHERE p.seq < (SELECT MAX(x.seq) FROM processed x WHERE x.order_no = p.order_no)
   AND NOT EXISTS (SELECT 1 FROM processed y
                    WHERE y.order_no = p.order_no AND y.seq = p.seq + 1)

ORDER BY 1, 2;
