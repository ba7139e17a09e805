-- duplicates: https://stackoverflow.com/questions/2594829/finding-duplicate-values-in-a-sql-table
SELECT order_no, seq, COUNT(*) AS cnt, 'duplicate' AS problem
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
-- gaps, "gaps and islands": https://stackoverflow.com/questions/17046204/how-to-find-gaps-in-sequential-numbering-in-sql
SELECT order_no, NULL, COUNT(DISTINCT grp), 'gap'
FROM (
    SELECT order_no, seq - ROW_NUMBER() OVER (PARTITION BY order_no ORDER BY seq) AS grp
    FROM (SELECT DISTINCT order_no, seq FROM processed)
)
GROUP BY order_no
HAVING COUNT(DISTINCT grp) > 1;
