"""The words of bench/wording_world.py: how people wrote the history's issues, and how they word new ones.

Seven recurring kinds of mistake of a sync tool (files to an object store), each the same decision
by the maintainers again and again. HISTORY holds, per kind, the titles and sentences the corrected
issues of the history are made of (English, as most of a project's history is). NEW holds, per
kind and per wording, new issues written the way people write: a paraphrase that avoids the
history's words, a short title alone, German, Spanish, French, a stack trace, Chinese, Japanese.
They were written by hand for this study, each as a reporter would, without looking at any
ranking's scores: technical words stay as people type them (`Windows`, `HTTPS_PROXY`, `SSL`),
the rest is in the reporter's language, and CJK text is often written without spaces.
"""

from __future__ import annotations

# Kind: (label the assistant put, label a maintainer put instead, quiet?). A quiet kind comes up
# only in the first weeks of the history: older than the 30 most recent analyses.
KINDS: dict[str, tuple[str, str, bool]] = {
    "windows": ("bug", "platform", True),
    "docs": ("bug", "documentation", True),
    "timeout": ("performance", "network", False),
    "tls": ("bug", "config", False),
    "proxy": ("security", "network", False),
    "large": ("bug", "performance", False),
    "exclude": ("bug", "question", False),
}

HISTORY: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "windows": (
        (
            "Paths with backslashes are not found on Windows",
            "Sync fails on Windows when the folder has a drive letter",
            "Windows: long paths over 260 characters are skipped",
            "Upload from C:\\Users fails with path not found",
            "UNC path \\\\server\\share is not supported",
            "Keys get backslashes when syncing from Windows",
            "PowerShell: sync of a folder with spaces fails",
            "Windows 11 sync cannot find files in OneDrive folder",
        ),
        (
            "On Windows 10 the path C:\\Users\\ana\\Documents\\photos is reported as missing.",
            "The object keys end up as photos\\2024\\img.jpg with backslashes instead of slashes.",
            "Running from cmd.exe or PowerShell gives the same result.",
            "It works on Linux and macOS, only Windows is affected.",
            "The drive letter seems to confuse the path handling.",
            "Paths longer than MAX_PATH are silently skipped.",
            "Mapped network drives like Z:\\ do not work either.",
        ),
    ),
    "docs": (
        (
            "README example uses an option that no longer exists",
            "Docs: the configuration page shows the wrong key name",
            "Typo in the quick start guide",
            "Documentation for --delete is misleading",
            "The tutorial still shows the old command syntax",
            "Docs do not say which environment variables are read",
            "Broken link in the installation instructions",
            "Example config in the docs fails to parse",
        ),
        (
            "The README says to run sync --dryrun but the option is called --dry-run.",
            "Copying the example from the documentation gives an error.",
            "The page on configuration lists bucket_region, the code reads region.",
            "The guide should mention that credentials are read from the environment.",
            "The link to the installation page returns 404.",
            "It took me an hour to find out the docs were outdated.",
            "Maybe the wording of this section could be clearer.",
        ),
    ),
    "timeout": (
        (
            "Uploads time out on a slow connection",
            "Timeout after 60 seconds when syncing large folder",
            "Sync aborts with read timeout on mobile network",
            "Connection timed out during upload",
            "Requests to the bucket time out behind a slow link",
            "Timeouts on every sync since yesterday",
            "Socket timeout when uploading over VPN",
            "Upload hangs then fails with timeout error",
        ),
        (
            "Each upload fails after exactly 60 seconds with a timeout.",
            "My connection is slow (about 1 Mbit/s upstream) and the transfer never finishes.",
            "The error says read timed out, then the sync stops.",
            "Retrying does not help, it times out again at the same file.",
            "Is there a setting for the connect or read timeout?",
            "On a faster network everything works.",
            "It looks like the request is not retried after a timeout.",
        ),
    ),
    "tls": (
        (
            "SSL certificate verify failed with company CA",
            "TLS handshake error against self-hosted MinIO",
            "certificate verify failed: unable to get local issuer certificate",
            "Custom CA bundle is ignored",
            "Sync fails with SSL error on internal endpoint",
            "Self-signed certificate rejected",
            "Hostname mismatch in certificate for bucket with dots",
            "Cannot connect to endpoint over HTTPS: certificate error",
        ),
        (
            "Our endpoint uses a certificate signed by the company CA.",
            "Setting REQUESTS_CA_BUNDLE does not change anything.",
            "The error is CERTIFICATE_VERIFY_FAILED on the first request.",
            "With --no-verify-ssl it works, but we do not want that.",
            "The certificate is valid in the browser.",
            "The MinIO server uses a self-signed certificate.",
            "Where do I put the CA file so the tool trusts it?",
        ),
    ),
    "proxy": (
        (
            "Does not work behind corporate proxy",
            "HTTPS_PROXY environment variable is ignored",
            "Proxy authentication required error",
            "Sync cannot reach bucket through proxy",
            "NO_PROXY not respected for internal endpoint",
            "407 Proxy Authentication Required on upload",
            "Connection refused when a proxy is configured",
            "Support SOCKS proxy",
        ),
        (
            "At work all traffic goes through a proxy at proxy.corp.example:8080.",
            "I set HTTPS_PROXY and HTTP_PROXY but the tool connects directly.",
            "curl works through the proxy, the sync does not.",
            "The proxy needs a username and password.",
            "Our firewall blocks direct connections to the internet.",
            "The internal endpoint should bypass the proxy but does not.",
            "Error: 407 Proxy Authentication Required.",
        ),
    ),
    "large": (
        (
            "Memory usage grows to several GB on big files",
            "Upload of a 20 GB file is very slow",
            "Multipart upload of large file uses all RAM",
            "Sync of large video files gets killed (OOM)",
            "Large uploads are slower than the aws cli",
            "High memory when uploading files over 5 GB",
            "Part size too small for large objects",
            "Big files take forever to upload",
        ),
        (
            "Uploading a 20 GB video the process grows to 8 GB of memory.",
            "The kernel OOM killer ends the process halfway through.",
            "Small files are fine, only the big ones are slow.",
            "The multipart chunks seem to be kept in memory.",
            "aws s3 cp uploads the same file three times faster.",
            "The machine has 4 GB of RAM and starts swapping.",
            "Maybe the part size should grow with the file size.",
        ),
    ),
    "exclude": (
        (
            "Hidden files are uploaded although excluded",
            "--exclude pattern does not match subfolders",
            ".gitignore is not respected",
            "node_modules gets synced despite the exclude rule",
            "Dotfiles are skipped, how do I include them?",
            "Exclude glob behaves differently from rsync",
            "Sync uploads .DS_Store files",
            "Which files are synced is unclear",
        ),
        (
            "I run sync --exclude '*.tmp' but the tmp files still show up in the bucket.",
            "The pattern build/* only excludes the top level build folder.",
            "Files listed in .gitignore are uploaded anyway.",
            "Is the exclude pattern a glob or a regex?",
            "The .DS_Store files from macOS end up in the bucket.",
            "I expected hidden files to be included by default.",
            "rsync excludes the whole tree with the same pattern.",
        ),
    ),
}

# Corrected issues of the history written in other languages (a project's users write in theirs).
HISTORY_OTHER: tuple[tuple[str, str, str], ...] = (
    ("windows", "Windows下路径包含反斜杠", "在Windows 10上同步D:\\项目\\数据文件夹失败，提示找不到路径。"),
    ("timeout", "上传大文件经常超时", "网络慢的时候上传总是超时，重试也没有用。"),
    (
        "large",
        "メモリ使用量が増え続ける",
        "大きな動画をアップロードするとメモリが足りなくなり、プロセスが終了します。",
    ),
    (
        "exclude",
        "除外パターンが効かない",
        "--exclude でtmpファイルを指定してもバケットにアップロードされます。",
    ),
    (
        "proxy",
        "Proxy wird ignoriert",
        "Hinter unserem Firmen-Proxy verbindet sich das Tool direkt, HTTPS_PROXY ist gesetzt.",
    ),
    (
        "tls",
        "Error de certificado SSL",
        "Con nuestro certificado interno la conexión falla con CERTIFICATE_VERIFY_FAILED.",
    ),
)

# Issues corrected once, each on a subject of its own: lines that compete for the first places.
ONE_OFF: tuple[tuple[str, str], ...] = (
    ("Progress bar flickers in tmux", "The bar redraws the whole line many times a second."),
    ("Colors are unreadable on a light terminal theme", "Yellow on white cannot be read."),
    ("Login with SSO opens the browser twice", "After the first login a second tab opens."),
    ("Object Lock retention is not set on upload", "The bucket has Object Lock enabled."),
    ("Watch mode crashes when a folder is renamed", "Segmentation fault after renaming a watched folder."),
    ("Shell completion for zsh is missing", "Bash completion works, zsh has none."),
    ("Dry run prints nothing", "With --dry-run there is no output at all."),
    ("Exit code is 0 even when files failed", "A script cannot tell that the sync failed."),
    ("Add a JSON output mode", "For scripts a machine readable summary would help."),
    ("Checksum mismatch reported for unchanged files", "Every run re-uploads the same files."),
)

# Analyses the maintainers kept: these issues are in the window but give no line.
KEPT: tuple[tuple[str, str], ...] = (
    ("Feature request: sync to two buckets at once", "It would be nice to mirror to a second bucket."),
    ("Question about pricing of requests", "How many requests does one sync make?"),
    ("Add Homebrew formula", "Installing with brew would be easier."),
    ("Crash when the bucket does not exist", "Traceback: NoSuchBucket."),
    ("Support for Azure Blob Storage", "Could the tool talk to Azure as well?"),
    ("Logo contribution", "I made a logo for the project."),
    ("Sync deletes files that were renamed", "A renamed file is deleted and uploaded again."),
    ("Config file location on macOS", "Where is the config file read from?"),
)

# Sentences any issue may carry, whatever its subject.
COMMON: tuple[str, ...] = (
    "Version 2.4.1, installed with pip.",
    "This started after upgrading to the latest release.",
    "Steps to reproduce: run sync on the folder.",
    "Expected the files to be in the bucket.",
    "Let me know if you need more logs.",
    "Thanks for the great tool!",
    "Running on Ubuntu 22.04 with Python 3.12.",
    "The same command worked last month.",
    "Error output below.",
    "Happens every time.",
)

WORDINGS: tuple[str, ...] = ("paraphrase", "short", "de", "es", "fr", "trace", "zh", "ja")

# New issues: per kind, per wording, two (title, body) written as people write them.
NEW: dict[str, dict[str, tuple[tuple[str, str], ...]]] = {
    "windows": {
        "paraphrase": (
            (
                "Folder on my D: drive can't be synced from my laptop",
                "I am on a Microsoft laptop and the tool says the directory does not exist. Same folder on my Mac is fine.",
            ),
            (
                "Object names contain odd separators when run from my PC",
                "After pushing from the office desktop, keys look like a\\b\\c.txt in the console.",
            ),
        ),
        "short": (("windows path broken", ""), ("backslash in keys", "")),
        "de": (
            (
                "Pfad unter Windows wird nicht gefunden",
                "Unter Windows 11 meldet das Tool, dass der Ordner C:\\Benutzer\\max\\Bilder nicht existiert. Unter Linux klappt alles.",
            ),
            (
                "Schlüssel enthalten Backslashes",
                "Wenn ich von meinem Windows-Rechner synchronisiere, haben die Objekte Backslashes im Namen.",
            ),
        ),
        "es": (
            (
                "La ruta no se encuentra en Windows",
                "En Windows la herramienta dice que la carpeta D:\\fotos no existe, en Linux funciona bien.",
            ),
            (
                "Barras invertidas en los nombres de los objetos",
                "Al sincronizar desde Windows los objetos tienen barras invertidas en la clave.",
            ),
        ),
        "fr": (
            (
                "Chemin introuvable sous Windows",
                "Sous Windows 10, le dossier C:\\Users\\marie\\Documents est signalé comme inexistant.",
            ),
            (
                "Les clés contiennent des antislashs depuis Windows",
                "Quand je synchronise depuis un poste Windows, les objets ont des antislashs dans leur nom.",
            ),
        ),
        "trace": (
            (
                "FileNotFoundError on sync",
                "Traceback (most recent call last):\n  File \"C:\\Python312\\Lib\\site-packages\\syncer\\walk.py\", line 41, in scan\n    entries = os.scandir(root)\nFileNotFoundError: [WinError 3] The system cannot find the path specified: 'C:\\\\Users\\\\li\\\\Desktop\\\\data'",
            ),
            (
                "OSError when scanning",
                'Traceback (most recent call last):\n  File "D:\\tools\\syncer\\walk.py", line 57, in stat\n    info = os.stat(path)\nOSError: [WinError 206] The filename or extension is too long',
            ),
        ),
        "zh": (
            ("Windows上路径找不到", "在Windows 11上同步C:\\Users\\wang\\文档时提示路径不存在，Linux上正常。"),
            ("对象名里有反斜杠", "从Windows电脑同步以后，存储桶里的对象名都是反斜杠分隔的。"),
        ),
        "ja": (
            (
                "Windowsでパスが見つからない",
                "Windows 10でC:\\Users\\tanaka\\写真を同期するとパスが存在しないと言われます。Macでは問題ありません。",
            ),
            (
                "キーにバックスラッシュが入る",
                "Windowsから同期するとオブジェクトのキーがバックスラッシュ区切りになります。",
            ),
        ),
    },
    "docs": {
        "paraphrase": (
            (
                "Getting started page is out of date",
                "Following the getting started steps word for word does not work, the flag shown there was renamed.",
            ),
            (
                "Manual never explains where settings come from",
                "I could not find anywhere in the manual which variables the program looks at.",
            ),
        ),
        "short": (("readme outdated", ""), ("docs wrong option", "")),
        "de": (
            (
                "Dokumentation ist veraltet",
                "Das Beispiel in der README verwendet die Option --dryrun, die es nicht mehr gibt.",
            ),
            (
                "Fehler in der Anleitung",
                "In der Schnellstart-Anleitung steht ein falscher Befehl, das Beispiel funktioniert nicht.",
            ),
        ),
        "es": (
            (
                "La documentación está desactualizada",
                "El ejemplo del README usa la opción --dryrun que ya no existe.",
            ),
            (
                "Error en la guía de inicio",
                "La guía rápida muestra un comando antiguo y el ejemplo no funciona.",
            ),
        ),
        "fr": (
            (
                "La documentation n'est pas à jour",
                "L'exemple du README utilise l'option --dryrun qui n'existe plus.",
            ),
            (
                "Erreur dans le guide de démarrage",
                "Le tutoriel montre encore l'ancienne syntaxe de la commande.",
            ),
        ),
        "trace": (
            (
                "Example from README fails",
                "$ syncer sync ./site s3://bucket --dryrun\nusage: syncer sync [-h] [--dry-run] [--delete] SRC DST\nsyncer sync: error: unrecognized arguments: --dryrun",
            ),
            (
                "Config example does not parse",
                'Traceback (most recent call last):\n  File "syncer/config.py", line 30, in load\n    raise ConfigError(f"unknown key {key!r}")\nsyncer.config.ConfigError: unknown key \'bucket_region\' (copied from the docs)',
            ),
        ),
        "zh": (
            ("文档过时了", "README里的示例用的是--dryrun选项，但是这个选项已经不存在了。"),
            ("快速入门教程有错误", "按照文档的快速入门一步步做，命令报错，示例配置无法解析。"),
        ),
        "ja": (
            ("ドキュメントが古い", "READMEの例が--dryrunオプションを使っていますが、もう存在しません。"),
            (
                "チュートリアルの誤り",
                "クイックスタートの手順どおりにやるとコマンドがエラーになります。ドキュメントの修正をお願いします。",
            ),
        ),
    },
    "timeout": {
        "paraphrase": (
            (
                "Transfers give up after a minute on hotel wifi",
                "On a weak wireless link every transfer is abandoned after roughly sixty seconds.",
            ),
            (
                "Pushing files stalls and then errors on my rural line",
                "With my poor DSL the job waits a long time and then quits.",
            ),
        ),
        "short": (("upload timeout", ""), ("timed out", "")),
        "de": (
            (
                "Zeitüberschreitung beim Hochladen",
                "Bei langsamer Verbindung bricht jeder Upload nach 60 Sekunden mit einer Zeitüberschreitung ab.",
            ),
            (
                "Timeout bei langsamer Leitung",
                "Über mein Handy-Netz bekomme ich beim Synchronisieren immer einen Timeout.",
            ),
        ),
        "es": (
            (
                "Tiempo de espera agotado al subir archivos",
                "Con una conexión lenta la subida falla después de 60 segundos: tiempo de espera agotado.",
            ),
            (
                "Timeout con conexión lenta",
                "Desde la red móvil la sincronización se corta con un error de timeout.",
            ),
        ),
        "fr": (
            (
                "Délai d'attente dépassé pendant l'envoi",
                "Avec une connexion lente, chaque envoi échoue au bout de 60 secondes.",
            ),
            (
                "Timeout sur une connexion lente",
                "En 4G la synchronisation s'arrête toujours avec un timeout.",
            ),
        ),
        "trace": (
            (
                "ReadTimeoutError",
                "Traceback (most recent call last):\n  File \"syncer/transfer.py\", line 112, in put_part\n    resp = session.put(url, data=chunk)\nurllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool(host='s3.example.com', port=443): Read timed out. (read timeout=60)",
            ),
            (
                "socket.timeout in upload",
                'Traceback (most recent call last):\n  File "syncer/transfer.py", line 98, in send\n    sock.sendall(data)\nTimeoutError: [Errno 110] Connection timed out',
            ),
        ),
        "zh": (
            ("上传超时", "网络比较慢的时候，每次上传60秒后就超时失败了。"),
            ("同步时连接超时", "用手机热点同步文件，总是报timeout错误。"),
        ),
        "ja": (
            (
                "アップロードがタイムアウトする",
                "回線が遅いと60秒でタイムアウトしてアップロードが失敗します。",
            ),
            ("同期中に接続タイムアウト", "モバイル回線で同期するといつもtimeoutエラーになります。"),
        ),
    },
    "tls": {
        "paraphrase": (
            (
                "Our internal storage endpoint is not trusted",
                "The program refuses the server because it does not accept our own signing authority; the browser is happy.",
            ),
            (
                "Secure connection to on-prem storage rejected",
                "Connecting to the on-premises server over https errors out about an untrusted issuer.",
            ),
        ),
        "short": (("ssl error", ""), ("cert verify failed", "")),
        "de": (
            (
                "Zertifikatsfehler mit Firmen-CA",
                "Unser Endpunkt nutzt ein Zertifikat unserer internen CA, das Tool lehnt die Verbindung ab.",
            ),
            (
                "SSL-Fehler beim Verbinden",
                "Beim ersten Request kommt CERTIFICATE_VERIFY_FAILED, im Browser ist das Zertifikat gültig.",
            ),
        ),
        "es": (
            (
                "Error de certificado con la CA de la empresa",
                "Nuestro servidor usa un certificado firmado por la CA interna y la herramienta lo rechaza.",
            ),
            (
                "Error SSL al conectar",
                "En la primera petición sale CERTIFICATE_VERIFY_FAILED aunque el certificado es válido.",
            ),
        ),
        "fr": (
            (
                "Erreur de certificat avec l'autorité interne",
                "Notre serveur utilise un certificat signé par notre CA interne et l'outil refuse la connexion.",
            ),
            (
                "Erreur SSL à la connexion",
                "Dès la première requête : CERTIFICATE_VERIFY_FAILED, alors que le certificat est valide.",
            ),
        ),
        "trace": (
            (
                "SSLCertVerificationError",
                'Traceback (most recent call last):\n  File "ssl.py", line 1319, in do_handshake\n    self._sslobj.do_handshake()\nssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1000)',
            ),
            (
                "SSLError on connect",
                "requests.exceptions.SSLError: HTTPSConnectionPool(host='minio.internal', port=9000): Max retries exceeded (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] self-signed certificate')))",
            ),
        ),
        "zh": (
            ("SSL证书验证失败", "我们的服务器用的是公司内部CA签发的证书，工具连接时报证书验证失败。"),
            ("自签名证书被拒绝", "连接自建的MinIO时提示CERTIFICATE_VERIFY_FAILED，浏览器里证书是有效的。"),
        ),
        "ja": (
            (
                "SSL証明書の検証に失敗する",
                "社内CAで署名された証明書を使うエンドポイントに接続すると証明書エラーになります。",
            ),
            ("自己署名証明書が拒否される", "自前のMinIOに接続するとCERTIFICATE_VERIFY_FAILEDが出ます。"),
        ),
    },
    "proxy": {
        "paraphrase": (
            (
                "Can't get out of the office network",
                "At my job all outbound traffic must go via a gateway and the tool tries to connect straight to the internet.",
            ),
            (
                "Tool ignores the gateway my company requires",
                "Everything else on my work machine uses the intermediary server we are given, except this program.",
            ),
        ),
        "short": (("proxy not used", ""), ("behind proxy", "")),
        "de": (
            (
                "Funktioniert nicht hinter dem Firmen-Proxy",
                "Bei uns geht alles über einen Proxy. HTTPS_PROXY ist gesetzt, aber das Tool verbindet sich direkt.",
            ),
            (
                "Proxy-Authentifizierung erforderlich",
                "Beim Hochladen kommt der Fehler 407, unser Proxy verlangt Benutzername und Passwort.",
            ),
        ),
        "es": (
            (
                "No funciona detrás del proxy corporativo",
                "En la oficina todo pasa por un proxy. Tengo HTTPS_PROXY configurado pero la herramienta se conecta directamente.",
            ),
            (
                "Se requiere autenticación del proxy",
                "Al subir archivos aparece el error 407, nuestro proxy pide usuario y contraseña.",
            ),
        ),
        "fr": (
            (
                "Ne fonctionne pas derrière le proxy de l'entreprise",
                "Au bureau tout passe par un proxy. HTTPS_PROXY est défini mais l'outil se connecte en direct.",
            ),
            (
                "Authentification proxy requise",
                "L'envoi échoue avec une erreur 407 : notre proxy demande un identifiant.",
            ),
        ),
        "trace": (
            (
                "ProxyError",
                "requests.exceptions.ProxyError: HTTPSConnectionPool(host='s3.amazonaws.com', port=443): Max retries exceeded with url: / (Caused by ProxyError('Unable to connect to proxy', OSError('Tunnel connection failed: 407 Proxy Authentication Required')))",
            ),
            (
                "ConnectionRefusedError with proxy set",
                'Traceback (most recent call last):\n  File "syncer/http.py", line 64, in connect\n    sock = socket.create_connection((host, port))\nConnectionRefusedError: [Errno 111] Connection refused (HTTPS_PROXY=http://proxy.corp:8080 is set)',
            ),
        ),
        "zh": (
            ("公司代理下无法使用", "公司网络必须走代理，已经设置了HTTPS_PROXY，但是工具还是直接连接。"),
            ("代理需要认证", "上传时报407错误，我们的代理服务器需要用户名和密码。"),
        ),
        "ja": (
            (
                "社内プロキシ経由で動かない",
                "会社ではプロキシ必須です。HTTPS_PROXYを設定しても直接接続しようとします。",
            ),
            (
                "プロキシ認証が必要",
                "アップロード時に407エラー、社内のプロキシはユーザー名とパスワードが必要です。",
            ),
        ),
    },
    "large": {
        "paraphrase": (
            (
                "Syncing my video archive eats all the RAM",
                "When I push a couple of very big recordings the process balloons until the machine freezes.",
            ),
            (
                "Huge single file crawls",
                "A single 40 gig disk image takes most of a day, much worse than other clients.",
            ),
        ),
        "short": (("high memory usage", ""), ("large file slow", "")),
        "de": (
            (
                "Hoher Speicherverbrauch bei großen Dateien",
                "Beim Hochladen einer 20-GB-Datei wächst der Prozess auf 8 GB RAM und wird vom OOM-Killer beendet.",
            ),
            (
                "Große Dateien sind sehr langsam",
                "Eine große Videodatei braucht Stunden, mit der aws cli nur Minuten.",
            ),
        ),
        "es": (
            (
                "Uso de memoria muy alto con archivos grandes",
                "Al subir un archivo de 20 GB el proceso llega a 8 GB de RAM y el sistema lo mata.",
            ),
            (
                "Los archivos grandes suben muy lento",
                "Un video grande tarda horas, con aws cli solo minutos.",
            ),
        ),
        "fr": (
            (
                "Consommation mémoire énorme sur les gros fichiers",
                "En envoyant un fichier de 20 Go le processus monte à 8 Go de RAM puis est tué.",
            ),
            (
                "Les gros fichiers sont très lents",
                "Une grosse vidéo met des heures alors que aws cli met quelques minutes.",
            ),
        ),
        "trace": (
            (
                "MemoryError during upload",
                'Traceback (most recent call last):\n  File "syncer/multipart.py", line 77, in read_parts\n    parts.append(f.read(part_size))\nMemoryError',
            ),
            (
                "Killed",
                "$ syncer sync /data/videos s3://archive\nuploading big.mkv (21.4 GiB) part 212/2190\nKilled\n$ dmesg | tail -1\nOut of memory: Killed process 4242 (syncer) total-vm:9123456kB",
            ),
        ),
        "zh": (
            ("大文件内存占用太高", "上传一个20GB的文件，进程内存涨到8GB，最后被OOM杀掉。"),
            ("大文件上传很慢", "一个很大的视频文件要传好几个小时，用aws cli只要几分钟。"),
        ),
        "ja": (
            (
                "大きなファイルでメモリ使用量が多い",
                "20GBのファイルをアップロードするとメモリが8GBまで増えてOOMで落ちます。",
            ),
            (
                "大きいファイルのアップロードが遅い",
                "大きな動画ファイルに何時間もかかります。aws cliなら数分です。",
            ),
        ),
    },
    "exclude": {
        "paraphrase": (
            (
                "Stuff I told it to skip ends up in the bucket anyway",
                "I pass a pattern to leave out temporary files but they still get copied over.",
            ),
            ("Git ignore list not honoured", "Everything my repo ignores is pushed along with the rest."),
        ),
        "short": (("exclude not working", ""), ("dotfiles uploaded", "")),
        "de": (
            (
                "--exclude wird ignoriert",
                "Ich nutze --exclude '*.tmp', aber die tmp-Dateien landen trotzdem im Bucket.",
            ),
            (
                "Versteckte Dateien werden hochgeladen",
                "Die .DS_Store-Dateien vom Mac werden mit synchronisiert, obwohl sie ausgeschlossen sind.",
            ),
        ),
        "es": (
            (
                "--exclude no funciona",
                "Uso --exclude '*.tmp' pero los archivos tmp siguen apareciendo en el bucket.",
            ),
            (
                "Se suben los archivos ocultos",
                "Los archivos .DS_Store del Mac se sincronizan aunque estén excluidos.",
            ),
        ),
        "fr": (
            (
                "--exclude ne fonctionne pas",
                "J'utilise --exclude '*.tmp' mais les fichiers tmp se retrouvent dans le bucket.",
            ),
            (
                "Les fichiers cachés sont envoyés",
                "Les fichiers .DS_Store du Mac sont synchronisés alors qu'ils sont exclus.",
            ),
        ),
        "trace": (
            (
                "Excluded files in the log",
                "$ syncer sync . s3://site --exclude 'build/*'\nupload: build/index.html\nupload: build/assets/app.js\nupload: src/main.ts\n3 files uploaded (build/ was supposed to be excluded)",
            ),
            (
                "Hidden files uploaded",
                "$ syncer sync ~/notes s3://notes -v\nDEBUG pattern .* compiled\nupload: .DS_Store\nupload: .git/config\nupload: todo.md",
            ),
        ),
        "zh": (
            ("--exclude不起作用", "我用了--exclude '*.tmp'，但是tmp文件还是被上传到存储桶里了。"),
            ("隐藏文件被上传了", "Mac上的.DS_Store文件也被同步了，明明已经排除了。"),
        ),
        "ja": (
            (
                "--excludeが効かない",
                "--exclude '*.tmp'を指定してもtmpファイルがバケットにアップロードされます。",
            ),
            (
                "隠しファイルがアップロードされる",
                "Macの.DS_Storeファイルが除外しているのに同期されてしまいます。",
            ),
        ),
    },
}
