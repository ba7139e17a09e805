-- same as view v_order_problems in ledger.sql, written out so it runs on any ledger
SELECT order_no, seq, 'duplicate' AS problem
FROM processed
GROUP BY order_no, seq
HAVING count(*) > 1
UNION ALL
SELECT p.order_no, p.seq + 1, 'missing'
FROM processed p
WHERE p.seq < (SELECT max(seq) FROM processed m WHERE m.order_no = p.order_no)
  AND NOT EXISTS (SELECT 1 FROM processed n
                  WHERE n.order_no = p.order_no AND n.seq = p.seq + 1);
