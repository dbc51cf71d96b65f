<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es">
<context>
    <name>AgentSearchDialog</name>
    <message>
        <source>As the agent asks by default (all words, else any)</source>
        <translation>Como pide el agente por defecto (todas las palabras; si no, cualquiera)</translation>
    </message>
    <message>
        <source>All words</source>
        <translation>Todas las palabras</translation>
    </message>
    <message>
        <source>Any word</source>
        <translation>Cualquier palabra</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Puesto</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Título</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Proyecto</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>Fijada</translation>
    </message>
    <message>
        <source>Type what the agent would search for.</source>
        <translation>Escribe lo que buscaría el agente.</translation>
    </message>
    <message>
        <source>“{word}”</source>
        <translation>«{word}»</translation>
    </message>
    <message>
        <source>The agent ignores words under 3 characters: {words}.</source>
        <translation>El agente ignora las palabras de menos de 3 caracteres: {words}.</translation>
    </message>
    <message>
        <source>The agent searches for the first 16 different words only; it leaves out: {words}.</source>
        <translation>El agente solo busca las 16 primeras palabras distintas; deja fuera: {words}.</translation>
    </message>
    <message>
        <source>No word of 3 characters or more is left, so the agent&apos;s search would find nothing.</source>
        <translation>No queda ninguna palabra de 3 caracteres o más, así que la búsqueda del agente no encontraría nada.</translation>
    </message>
    <message>
        <source>The agent would find nothing for this text.</source>
        <translation>El agente no encontraría nada con este texto.</translation>
    </message>
    <message>
        <source>The agent would get this observation (it asks for {limit} by default).</source>
        <translation>El agente obtendría esta observación (pide {limit} por defecto).</translation>
    </message>
    <message>
        <source>The agent would get these {n} observations, best first (it asks for {limit} by default).</source>
        <translation>El agente obtendría estas {n} observaciones, la mejor primero (pide {limit} por defecto).</translation>
    </message>
    <message>
        <source>It searched for observations with all the words.</source>
        <translation>Buscó observaciones con todas las palabras.</translation>
    </message>
    <message>
        <source>It searched for observations with any of the words.</source>
        <translation>Buscó observaciones con cualquiera de las palabras.</translation>
    </message>
    <message>
        <source>No observation has all the words, so it searched again for any of them (the agent does that when it asks without a mode).</source>
        <translation>Ninguna observación tiene todas las palabras, así que volvió a buscar cualquiera de ellas (el agente lo hace cuando pide sin indicar un modo).</translation>
    </message>
    <message>
        <source>Asked without a mode, the agent requires every word, and any word when no observation has them all</source>
        <translation>Si pide sin indicar un modo, el agente exige todas las palabras, y cualquiera de ellas cuando ninguna observación las tiene todas</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Borrar</translation>
    </message>
    <message>
        <source>Clear the text</source>
        <translation>Borrar el texto</translation>
    </message>
    <message>
        <source>Search as the agent</source>
        <translation>Buscar como el agente</translation>
    </message>
    <message>
        <source>What the agent&apos;s memory_search would be asked</source>
        <translation>Lo que se le pediría a memory_search del agente</translation>
    </message>
    <message>
        <source>Text to search</source>
        <translation>Texto que buscar</translation>
    </message>
    <message>
        <source>Match</source>
        <translation>Coincidencia</translation>
    </message>
    <message>
        <source>The project whose chat searches: it sees that project&apos;s rows and personal ones</source>
        <translation>El proyecto del chat que busca: ve las filas de ese proyecto y las personales</translation>
    </message>
    <message>
        <source>About the agent&apos;s answer</source>
        <translation>Sobre la respuesta del agente</translation>
    </message>
    <message>
        <source>&amp;Text</source>
        <translation>&amp;Texto</translation>
    </message>
    <message>
        <source>&amp;Project</source>
        <translation>&amp;Proyecto</translation>
    </message>
    <message>
        <source>&amp;Match</source>
        <translation>&amp;Coincidencia</translation>
    </message>
    <message>
        <source>What the agent would find</source>
        <translation>Lo que encontraría el agente</translation>
    </message>
    <message>
        <source>The observations the agent&apos;s search would return, best first. Enter selects one in the main table.</source>
        <translation>Las observaciones que devolvería la búsqueda del agente, la mejor primero. Intro selecciona una en la tabla principal.</translation>
    </message>
    <message>
        <source>Double-click a result (or press Enter) to select it in the main table</source>
        <translation>Haz doble clic en un resultado (o pulsa Intro) para seleccionarlo en la tabla principal</translation>
    </message>
    <message>
        <source>All projects</source>
        <translation>Todos los proyectos</translation>
    </message>
    <message>
        <source>Open a database to search it as the agent would.</source>
        <translation>Abre una base de datos para buscar en ella como lo haría el agente.</translation>
    </message>
    <message>
        <source>The agent&apos;s search could not run: {message}</source>
        <translation>La búsqueda del agente no pudo ejecutarse: {message}</translation>
    </message>
    <message>
        <source>{project} (personal)</source>
        <translation>{project} (personal)</translation>
    </message>
</context>
<context>
    <name>AgentView</name>
    <message>
        <source>Shaded: the list part, which changes with your entries. The rest is the agent&apos;s own text.</source>
        <translation>Sombreado: la parte de la lista, que cambia con tus entradas. El resto es el texto propio del agente.</translation>
    </message>
    <message>
        <source>The agent gets no memory section while the folder has the problem above.</source>
        <translation>El agente no recibe ninguna sección de memoria mientras la carpeta tenga el problema de arriba.</translation>
    </message>
    <message>
        <source>Exactly the section of the agent&apos;s system prompt these build</source>
        <translation>Exactamente la sección del prompt de sistema del agente que estas entradas construyen</translation>
    </message>
    <message>
        <source>What the agent sees</source>
        <translation>Lo que ve el agente</translation>
    </message>
    <message>
        <source>The memory section of the agent&apos;s system prompt, exactly as the agent reads it</source>
        <translation>La sección de memoria del prompt de sistema del agente, tal como la lee el agente</translation>
    </message>
</context>
<context>
    <name>Chats</name>
    <message>
        <source>Not recorded: this database predates loaded-context records (schema 101); an Alisio update will record them for new chats</source>
        <translation>No registrado: esta base de datos es anterior al registro del contexto cargado (esquema 101); una actualización de Alisio lo registrará en los chats nuevos</translation>
    </message>
    <message>
        <source>Not recorded: this chat started before the plugin recorded loaded context, or the plugin injected nothing when it started</source>
        <translation>No registrado: este chat empezó antes de que el plugin registrara el contexto cargado, o el plugin no inyectó nada al empezar</translation>
    </message>
    <message>
        <source>This database has no user_prompts table: no prompts recorded</source>
        <translation>Esta base de datos no tiene la tabla user_prompts: no hay prompts registrados</translation>
    </message>
    <message>
        <source>This database has no {tables} table (an older or partial Alisio memory): chats are listed from what it has</source>
        <translation>Esta base de datos no tiene la tabla {tables} (una memoria de Alisio antigua o parcial): los chats se listan con lo que tiene</translation>
    </message>
</context>
<context>
    <name>ChatsPage</name>
    <message>
        <source>Chat</source>
        <translation>Chat</translation>
    </message>
    <message>
        <source>Chat sections</source>
        <translation>Secciones del chat</translation>
    </message>
    <message>
        <source>Saved in this chat</source>
        <translation>Guardado en este chat</translation>
    </message>
    <message>
        <source>Session summary</source>
        <translation>Resumen de la sesión</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>Contexto</translation>
    </message>
    <message>
        <source>Loaded context</source>
        <translation>Contexto cargado</translation>
    </message>
    <message>
        <source>Prompts</source>
        <translation>Prompts</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>Línea de tiempo</translation>
    </message>
    <message>
        <source>Next chat</source>
        <translation>Próximo chat</translation>
    </message>
    <message>
        <source>Type of the saved observations</source>
        <translation>Tipo de las observaciones guardadas</translation>
    </message>
    <message>
        <source>All types</source>
        <translation>Todos los tipos</translation>
    </message>
    <message>
        <source>Search title, content and topic key</source>
        <translation>Buscar en título, contenido y clave de tema</translation>
    </message>
    <message>
        <source>Search what this chat saved</source>
        <translation>Buscar en lo que guardó este chat</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>Fijada</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Actualizada</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Título</translation>
    </message>
    <message>
        <source>Double-click (or press Enter) to show it in the table</source>
        <translation>Doble clic (o Intro) para mostrarla en la tabla</translation>
    </message>
    <message>
        <source>No summary</source>
        <translation>Sin resumen</translation>
    </message>
    <message>
        <source>&amp;Copy loaded context</source>
        <translation>&amp;Copiar contexto cargado</translation>
    </message>
    <message>
        <source>Copy loaded context</source>
        <translation>Copiar contexto cargado</translation>
    </message>
    <message>
        <source>Copy the exact text the plugin injected when this chat began</source>
        <translation>Copiar el texto exacto que el plugin inyectó al empezar este chat</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Cuándo</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>Prompt</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Creada</translation>
    </message>
    <message>
        <source>{n} character</source>
        <translation>{n} carácter</translation>
    </message>
    <message>
        <source>{n} characters</source>
        <translation>{n} caracteres</translation>
    </message>
    <message>
        <source>Injected when the chat began, {when}: {size}</source>
        <translation>Inyectado al empezar el chat, {when}: {size}</translation>
    </message>
    <message>
        <source>No prompts recorded in this chat</source>
        <translation>No hay prompts registrados en este chat</translation>
    </message>
    <message>
        <source>Nothing this chat saved matches</source>
        <translation>Nada de lo que guardó este chat coincide</translation>
    </message>
    <message>
        <source>This chat saved nothing that is still remembered</source>
        <translation>Este chat no guardó nada que siga recordado</translation>
    </message>
    <message>
        <source>Choose Timeline on an observation to see what was saved just before and after it, as the agent&apos;s memory_timeline shows it</source>
        <translation>Elige Línea de tiempo en una observación para ver lo que se guardó justo antes y después, como lo muestra memory_timeline del agente</translation>
    </message>
    <message>
        <source>Observation #{id} and what its chat saved just before and after it</source>
        <translation>La observación #{id} y lo que su chat guardó justo antes y después</translation>
    </message>
    <message>
        <source>Observation #{id} belongs to no chat: its neighbours in project {project}</source>
        <translation>La observación #{id} no pertenece a ningún chat: sus vecinas en el proyecto {project}</translation>
    </message>
    <message>
        <source>It is forgotten: the agent&apos;s memory_timeline answers nothing for it; its neighbours are shown anyway.</source>
        <translation>Está olvidada: memory_timeline del agente no responde nada para ella; sus vecinas se muestran de todos modos.</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Proyecto</translation>
    </message>
    <message>
        <source>Directory</source>
        <translation>Directorio</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Inicio</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>Fin</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>Guardadas</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Resumen</translation>
    </message>
    <message>
        <source>Chat {id}</source>
        <translation>Chat {id}</translation>
    </message>
    <message>
        <source>{when}: the first thing this chat recorded (no start time)</source>
        <translation>{when}: lo primero que registró este chat (sin hora de inicio)</translation>
    </message>
    <message>
        <source>Search chats by id, project, directory or summary</source>
        <translation>Buscar chats por id, proyecto, directorio o resumen</translation>
    </message>
    <message>
        <source>Search chats</source>
        <translation>Buscar chats</translation>
    </message>
    <message>
        <source>Project of the chats</source>
        <translation>Proyecto de los chats</translation>
    </message>
    <message>
        <source>All projects</source>
        <translation>Todos los proyectos</translation>
    </message>
    <message>
        <source>Chats</source>
        <translation>Chats</translation>
    </message>
    <message>
        <source>E&amp;xport chat…</source>
        <translation>E&amp;xportar chat…</translation>
    </message>
    <message>
        <source>Export chat</source>
        <translation>Exportar chat</translation>
    </message>
    <message>
        <source>Save this chat with its summary, loaded context and prompts as Markdown</source>
        <translation>Guardar este chat con su resumen, contexto cargado y prompts como Markdown</translation>
    </message>
    <message>
        <source>Cleared the chat search and project to show the chat</source>
        <translation>Se borraron la búsqueda y el proyecto de los chats para mostrar el chat</translation>
    </message>
    <message>
        <source>{n} chat</source>
        <translation>{n} chat</translation>
    </message>
    <message>
        <source>{n} chats</source>
        <translation>{n} chats</translation>
    </message>
    <message>
        <source>No chat {id} in this database</source>
        <translation>No hay ningún chat {id} en esta base de datos</translation>
    </message>
    <message>
        <source>Observation #{id} no longer exists</source>
        <translation>La observación #{id} ya no existe</translation>
    </message>
    <message>
        <source>Observation #{id} was saved outside any chat</source>
        <translation>La observación #{id} se guardó fuera de todo chat</translation>
    </message>
    <message>
        <source>Choose a chat to see what it saved and was told</source>
        <translation>Elige un chat para ver qué guardó y qué se le dijo</translation>
    </message>
    <message>
        <source>Project {project}</source>
        <translation>Proyecto {project}</translation>
    </message>
    <message>
        <source>in {directory}</source>
        <translation>en {directory}</translation>
    </message>
    <message>
        <source>started {when}</source>
        <translation>empezó {when}</translation>
    </message>
    <message>
        <source>ended {when}</source>
        <translation>terminó {when}</translation>
    </message>
    <message>
        <source>{n} observation saved</source>
        <translation>{n} observación guardada</translation>
    </message>
    <message>
        <source>{n} observations saved</source>
        <translation>{n} observaciones guardadas</translation>
    </message>
</context>
<context>
    <name>CompareDialog</name>
    <message>
        <source>Lines starting with - are only in theirs; lines starting with + are only in yours.</source>
        <translation>Las líneas que empiezan por - solo están en su versión; las que empiezan por + solo en la tuya.</translation>
    </message>
    <message>
        <source>Differences</source>
        <translation>Diferencias</translation>
    </message>
    <message>
        <source>Keep &amp;mine</source>
        <translation>Conservar lo &amp;mío</translation>
    </message>
    <message>
        <source>Keep your version; saving writes it over theirs</source>
        <translation>Conserva tu versión; al guardar se escribe sobre la suya</translation>
    </message>
    <message>
        <source>&amp;Take theirs</source>
        <translation>&amp;Tomar lo suyo</translation>
    </message>
    <message>
        <source>Drop your edits and take their version</source>
        <translation>Descarta tus cambios y toma su versión</translation>
    </message>
</context>
<context>
    <name>ConflictBanner</name>
    <message>
        <source>&amp;Compare</source>
        <translation>&amp;Comparar</translation>
    </message>
    <message>
        <source>Keep &amp;mine</source>
        <translation>Conservar lo &amp;mío</translation>
    </message>
    <message>
        <source>Re&amp;load theirs</source>
        <translation>Tomar &amp;lo suyo</translation>
    </message>
    <message>
        <source>&amp;Keep</source>
        <translation>&amp;Conservar</translation>
    </message>
    <message>
        <source>C&amp;lose</source>
        <translation>Ce&amp;rrar</translation>
    </message>
    <message>
        <source>Changed by another program</source>
        <translation>Cambiado por otro programa</translation>
    </message>
</context>
<context>
    <name>Database</name>
    <message>
        <source>After repairing it, use Tools ▸ Check database to check again.</source>
        <translation>Después de repararla, usa Herramientas ▸ Comprobar base de datos para comprobarla de nuevo.</translation>
    </message>
    <message>
        <source>its cache folder</source>
        <translation>su carpeta de caché</translation>
    </message>
    <message>
        <source>the file system holding it is mounted read-only: you can browse, but changes cannot be saved</source>
        <translation>el sistema de archivos que lo contiene está montado como de solo lectura: puedes consultarlo, pero no se pueden guardar cambios</translation>
    </message>
    <message>
        <source>the file is read-only: you can browse, but changes cannot be saved</source>
        <translation>el archivo es de solo lectura: puedes explorarlo, pero no se pueden guardar cambios</translation>
    </message>
    <message>
        <source>no schema_migrations table: the plugin&apos;s version is unknown</source>
        <translation>no hay tabla schema_migrations: se desconoce la versión del plugin</translation>
    </message>
    <message>
        <source>chats show no summaries and the next chat&apos;s context is previewed without the last summary</source>
        <translation>los chats no muestran resúmenes y el contexto del próximo chat se previsualiza sin el último resumen</translation>
    </message>
    <message>
        <source>chats show no prompts and the next chat&apos;s context is previewed without recent prompts</source>
        <translation>los chats no muestran peticiones y el contexto del próximo chat se previsualiza sin las peticiones recientes</translation>
    </message>
    <message>
        <source>chats cannot show the context the plugin gave them at their start</source>
        <translation>los chats no pueden mostrar el contexto que el plugin les dio al empezar</translation>
    </message>
    <message>
        <source>{path} is damaged: SQLite&apos;s check found {detail}. Memory Desk shows what it can read but will not write to it. Rebuilding the search index would not repair this: stop the agent and restore a backup of memory.sqlite (or recover it with sqlite3&apos;s &quot;.recover&quot;). {check_again}</source>
        <translation>{path} está dañado: la comprobación de SQLite encontró {detail}. Memory Desk muestra lo que puede leer, pero no escribirá en él. Reconstruir el índice de búsqueda no lo repararía: detén el agente y restaura una copia de seguridad de memory.sqlite (o recupérala con &quot;.recover&quot; de sqlite3). {check_again}</translation>
    </message>
    <message>
        <source>{broken_index}. Until then Memory Desk will not write to it (the agent&apos;s searches miss or misreport rows, and every write would go through the broken index). After rebuilding, use Tools ▸ Check database to check again.</source>
        <translation>{broken_index}. Hasta entonces Memory Desk no escribirá en ella (las búsquedas del agente omiten o informan mal de filas, y cada escritura pasaría por el índice dañado). Después de reconstruirlo, usa Herramientas ▸ Comprobar base de datos para comprobarla de nuevo.</translation>
    </message>
    <message>
        <source>Could not check the database: Memory Desk could not write its scratch copy in {where} ({reason}); free some space there or check that folder&apos;s permissions</source>
        <translation>No se pudo comprobar la base de datos: Memory Desk no pudo escribir su copia temporal en {where} ({reason}); libera espacio ahí o revisa los permisos de esa carpeta</translation>
    </message>
    <message>
        <source>The search index of {path} is damaged ({detail}). With the agent stopped, rebuild it with: sqlite3 {quoted_path} &quot;INSERT INTO observations_fts(observations_fts) VALUES(&apos;rebuild&apos;)&quot;, or restore a backup</source>
        <translation>El índice de búsqueda de {path} está dañado ({detail}). Con el agente detenido, reconstrúyelo con: sqlite3 {quoted_path} &quot;INSERT INTO observations_fts(observations_fts) VALUES(&apos;rebuild&apos;)&quot;, o restaura una copia de seguridad</translation>
    </message>
    <message>
        <source>missing {tables}</source>
        <translation>faltan {tables}</translation>
    </message>
    <message>
        <source>{indexed} rows indexed for {rows} observations</source>
        <translation>{indexed} filas indexadas para {rows} observaciones</translation>
    </message>
    <message>
        <source>There is no file at {path}; check the path</source>
        <translation>No hay ningún archivo en {path}; revisa la ruta</translation>
    </message>
    <message>
        <source>{path} is not a file; choose Alisio&apos;s memory.sqlite</source>
        <translation>{path} no es un archivo; elige el memory.sqlite de Alisio</translation>
    </message>
    <message>
        <source>{path} has an observations table without the columns {columns}; it was not written by Alisio&apos;s memory plugin</source>
        <translation>{path} tiene una tabla observations sin las columnas {columns}; no la escribió el plugin de memoria de Alisio</translation>
    </message>
    <message>
        <source>the database is in {mode} journal mode, not the plugin&apos;s WAL: while the agent runs, Memory Desk&apos;s writes may make it wait</source>
        <translation>la base de datos está en modo de diario {mode}, no en el WAL del plugin: mientras el agente trabaja, las escrituras de Memory Desk pueden hacerlo esperar</translation>
    </message>
    <message>
        <source>written by a newer plugin (schema {version}): Memory Desk shows and edits only the columns it knows</source>
        <translation>escrita por un plugin más reciente (esquema {version}): Memory Desk muestra y edita solo las columnas que conoce</translation>
    </message>
    <message>
        <source>the {table} table is missing</source>
        <translation>falta la tabla {table}</translation>
    </message>
    <message>
        <source>the {table} table has no {columns} column, so Memory Desk leaves it unread</source>
        <translation>la tabla {table} no tiene la columna {columns}, así que Memory Desk no la lee</translation>
    </message>
    <message>
        <source>{what}: {loss}; observations, their search and your edits work as usual</source>
        <translation>{what}: {loss}; las observaciones, su búsqueda y tus ediciones funcionan como siempre</translation>
    </message>
    <message>
        <source>the search index triggers are missing ({triggers}): searches, the agent&apos;s too, will not see those changes to observations. Restore a backup of memory.sqlite, or recreate the plugin&apos;s triggers and rebuild the index</source>
        <translation>faltan los disparadores del índice de búsqueda ({triggers}): las búsquedas, también las del agente, no verán esos cambios en las observaciones. Restaura una copia de seguridad de memory.sqlite, o vuelve a crear los disparadores del plugin y reconstruye el índice</translation>
    </message>
    <message>
        <source>observation #{id} is missing from it</source>
        <translation>le falta la observación #{id}</translation>
    </message>
    <message>
        <source>{path} is an SQLite file but not Alisio&apos;s memory database (it has no {table} table); choose the plugin&apos;s memory.sqlite</source>
        <translation>{path} es un archivo SQLite, pero no la base de datos de memoria de Alisio (no tiene la tabla {table}); elige el memory.sqlite del plugin</translation>
    </message>
    <message>
        <source>Could not {action}: {path} is on a file system mounted read-only; nothing can be written there</source>
        <translation>No se pudo {action}: {path} está en un sistema de archivos montado como de solo lectura; ahí no se puede escribir nada</translation>
    </message>
    <message>
        <source>{name} was closed; open it again</source>
        <translation>{name} se cerró; vuelve a abrirla</translation>
    </message>
    <message>
        <source>{path} was replaced by another file since Memory Desk opened it (another program moved or copied a database over it); nothing was written to either file. Open the path again to work on the file that is there now</source>
        <translation>{path} fue sustituido por otro archivo desde que Memory Desk lo abrió (otro programa movió o copió una base de datos encima); no se escribió nada en ninguno de los dos. Abre la ruta de nuevo para trabajar con el archivo que hay ahora</translation>
    </message>
    <message>
        <source>Could not {action} in {path}: {detail}</source>
        <translation>No se pudo {action} en {path}: {detail}</translation>
    </message>
    <message>
        <source>Could not open {path}: it is on a file system mounted read-only, where SQLite cannot open a database kept in the plugin&apos;s WAL mode (it must create its -shm file beside it). Copy memory.sqlite to a folder you can write and open the copy, or mount the file system read-write</source>
        <translation>No se pudo abrir {path}: está en un sistema de archivos montado como de solo lectura, donde SQLite no puede abrir una base de datos en el modo WAL del plugin (tiene que crear su archivo -shm a su lado). Copia memory.sqlite a una carpeta en la que puedas escribir y abre la copia, o monta el sistema de archivos en lectura y escritura</translation>
    </message>
    <message>
        <source>Could not {action}: {path} is no longer there: it was deleted, or moved elsewhere, since Memory Desk opened it; nothing was written to it. If it was moved, open it from its new place</source>
        <translation>No se pudo {action}: {path} ya no está ahí: se eliminó o se movió a otro sitio desde que Memory Desk lo abrió; no se escribió nada en él. Si se movió, ábrelo desde su nuevo lugar</translation>
    </message>
    <message>
        <source>{path} is no longer there: it was deleted, or moved elsewhere, since Memory Desk opened it; nothing was written to it. If it was moved, open it from its new place</source>
        <translation>{path} ya no está ahí: se eliminó o se movió a otro sitio desde que Memory Desk lo abrió; no se escribió nada en él. Si se movió, ábrelo desde su nuevo lugar</translation>
    </message>
    <message>
        <source>Could not {action}: {path} was replaced by another file since Memory Desk opened it (another program moved or copied a database over it); nothing was written to either file. Open the path again to work on the file that is there now</source>
        <translation>No se pudo {action}: {path} fue sustituido por otro archivo desde que Memory Desk lo abrió (otro programa movió o copió una base de datos encima); no se escribió nada en ninguno de los dos. Abre la ruta de nuevo para trabajar con el archivo que hay ahora</translation>
    </message>
    <message>
        <source>Could not {action}: the agent is busy writing {path}; try again in a moment</source>
        <translation>No se pudo {action}: el agente está escribiendo en {path}; inténtalo de nuevo en un momento</translation>
    </message>
    <message>
        <source>Could not {action}: {path} is read-only (check its permissions)</source>
        <translation>No se pudo {action}: {path} es de solo lectura (revisa sus permisos)</translation>
    </message>
    <message>
        <source>Could not {action}: the disk holding {path} is full</source>
        <translation>No se pudo {action}: el disco que contiene {path} está lleno</translation>
    </message>
    <message>
        <source>{path} is not an SQLite database; choose Alisio&apos;s memory.sqlite</source>
        <translation>{path} no es una base de datos SQLite; elige el memory.sqlite de Alisio</translation>
    </message>
    <message>
        <source>{path} is damaged ({detail}); it may be truncated or half-copied. Restore a backup of memory.sqlite</source>
        <translation>{path} está dañado ({detail}); puede estar truncado o copiado a medias. Restaura una copia de seguridad de memory.sqlite</translation>
    </message>
    <message>
        <source>Could not open {path}: check that it exists and that you may read it</source>
        <translation>No se pudo abrir {path}: comprueba que existe y que puedes leerlo</translation>
    </message>
    <message>
        <source>Could not {action}: reading or writing {path} failed ({detail})</source>
        <translation>No se pudo {action}: falló la lectura o escritura de {path} ({detail})</translation>
    </message>
    <message>
        <source>Could not {action}: Memory Desk does not write to a damaged database. {damage}</source>
        <translation>No se pudo {action}: Memory Desk no escribe en una base de datos dañada. {damage}</translation>
    </message>
    <message>
        <source>Could not {action}: the text contains a character that cannot be stored ({reason}: {character}); remove it</source>
        <translation>No se pudo {action}: el texto contiene un carácter que no se puede guardar ({reason}: {character}); quítalo</translation>
    </message>
    <message>
        <source>Could not {action}: a number is too large for SQLite</source>
        <translation>No se pudo {action}: un número es demasiado grande para SQLite</translation>
    </message>
    <message>
        <source>{path} changed while Memory Desk was opening it (another program replaced or removed it); open it again</source>
        <translation>{path} cambió mientras Memory Desk lo abría (otro programa lo sustituyó o lo eliminó); vuelve a abrirlo</translation>
    </message>
    <message>
        <source>Stopped reading {path}: a newer search replaced this one</source>
        <translation>Se dejó de leer {path}: una búsqueda más reciente reemplazó a esta</translation>
    </message>
</context>
<context>
    <name>DatabaseAction</name>
    <message>
        <source>check the database</source>
        <translation>comprobar la base de datos</translation>
    </message>
    <message>
        <source>read it</source>
        <translation>leerla</translation>
    </message>
    <message>
        <source>open</source>
        <translation>abrir</translation>
    </message>
    <message>
        <source>search</source>
        <translation>buscar</translation>
    </message>
    <message>
        <source>count</source>
        <translation>contar</translation>
    </message>
    <message>
        <source>read</source>
        <translation>leer</translation>
    </message>
    <message>
        <source>check for changes</source>
        <translation>comprobar si hay cambios</translation>
    </message>
    <message>
        <source>search as the agent</source>
        <translation>buscar como el agente</translation>
    </message>
    <message>
        <source>write</source>
        <translation>escribir</translation>
    </message>
    <message>
        <source>pin</source>
        <translation>fijar</translation>
    </message>
    <message>
        <source>forget</source>
        <translation>olvidar</translation>
    </message>
    <message>
        <source>restore</source>
        <translation>restaurar</translation>
    </message>
    <message>
        <source>undo</source>
        <translation>deshacer</translation>
    </message>
    <message>
        <source>delete</source>
        <translation>eliminar</translation>
    </message>
    <message>
        <source>edit</source>
        <translation>editar</translation>
    </message>
    <message>
        <source>save the observation again</source>
        <translation>guardar de nuevo la observación</translation>
    </message>
    <message>
        <source>undo the edit</source>
        <translation>deshacer la edición</translation>
    </message>
    <message>
        <source>read the observations to export</source>
        <translation>leer las observaciones que se exportan</translation>
    </message>
    <message>
        <source>read what the chat saved</source>
        <translation>leer lo que guardó el chat</translation>
    </message>
    <message>
        <source>read the timeline</source>
        <translation>leer la línea de tiempo</translation>
    </message>
    <message>
        <source>read the chats</source>
        <translation>leer los chats</translation>
    </message>
    <message>
        <source>read the chat</source>
        <translation>leer el chat</translation>
    </message>
    <message>
        <source>read what the next chat will be told</source>
        <translation>leer qué se le dirá al próximo chat</translation>
    </message>
    <message>
        <source>read the last recorded context</source>
        <translation>leer el último contexto registrado</translation>
    </message>
    <message>
        <source>read the overview</source>
        <translation>leer la vista general</translation>
    </message>
    <message>
        <source>look for pruning candidates</source>
        <translation>buscar candidatas para depurar</translation>
    </message>
</context>
<context>
    <name>DatabaseWatcher</name>
    <message>
        <source>The database {path} is not there; waiting for it to appear.</source>
        <translation>La base de datos {path} no está; esperando a que aparezca.</translation>
    </message>
    <message>
        <source>{path} is no longer there: it was deleted, or moved elsewhere, while Memory Desk had it open</source>
        <translation>{path} ya no está: se eliminó o se movió a otro sitio mientras Memory Desk la tenía abierta</translation>
    </message>
    <message>
        <source>{path} was replaced by another file while Memory Desk had it open (another program moved or copied a database over it)</source>
        <translation>{path} fue reemplazada por otro archivo mientras Memory Desk la tenía abierta (otro programa movió o copió una base de datos encima)</translation>
    </message>
    <message>
        <source>Cannot watch {path} for changes: {reason}</source>
        <translation>No se pueden vigilar los cambios de {path}: {reason}</translation>
    </message>
</context>
<context>
    <name>DateRangeFilter</name>
    <message>
        <source>Any time</source>
        <translation>Cualquier fecha</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>Últimas 24 horas</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>Últimos 7 días</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>Últimos 30 días</translation>
    </message>
    <message>
        <source>Chosen days</source>
        <translation>Días elegidos</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>De creación</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>De actualización</translation>
    </message>
    <message>
        <source>{first} – {last}</source>
        <translation>{first} – {last}</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Fecha</translation>
    </message>
    <message>
        <source>24 h</source>
        <translation>24 h</translation>
    </message>
    <message>
        <source>7 days</source>
        <translation>7 días</translation>
    </message>
    <message>
        <source>30 days</source>
        <translation>30 días</translation>
    </message>
    <message>
        <source>Dates</source>
        <translation>Fechas</translation>
    </message>
    <message>
        <source>Date filter</source>
        <translation>Filtro de fecha</translation>
    </message>
    <message>
        <source>Span of time</source>
        <translation>Periodo</translation>
    </message>
    <message>
        <source>Which date</source>
        <translation>Qué fecha</translation>
    </message>
    <message>
        <source>Whether the range bounds when a row was created or last updated</source>
        <translation>Si el periodo se aplica a cuándo se creó una observación o a cuándo se actualizó por última vez</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Mostrar</translation>
    </message>
    <message>
        <source>By date</source>
        <translation>Fecha</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Desde</translation>
    </message>
    <message>
        <source>To</source>
        <translation>Hasta</translation>
    </message>
    <message>
        <source>First day</source>
        <translation>Primer día</translation>
    </message>
    <message>
        <source>Last day</source>
        <translation>Último día</translation>
    </message>
    <message>
        <source>Show only what was created or updated in a span of time</source>
        <translation>Mostrar solo lo creado o actualizado en un periodo</translation>
    </message>
    <message>
        <source>Showing only what was updated: {span}</source>
        <translation>Solo se muestra lo actualizado: {span}</translation>
    </message>
    <message>
        <source>Showing only what was created: {span}</source>
        <translation>Solo se muestra lo creado: {span}</translation>
    </message>
</context>
<context>
    <name>Dates</name>
    <message>
        <source>just now</source>
        <translation>ahora mismo</translation>
    </message>
    <message>
        <source>{n} min ago</source>
        <translation>hace {n} min</translation>
    </message>
    <message>
        <source>{n} h ago</source>
        <translation>hace {n} h</translation>
    </message>
    <message>
        <source>yesterday</source>
        <translation>ayer</translation>
    </message>
    <message>
        <source>{n} days ago</source>
        <translation>hace {n} días</translation>
    </message>
    <message>
        <source>{exact} ({relative})</source>
        <translation>{exact} ({relative})</translation>
    </message>
</context>
<context>
    <name>EntryEditor</name>
    <message>
        <source>The entry needs a description: the agent lists it by this line and cannot update it without one.</source>
        <translation>La entrada necesita una descripción: el agente la lista por esta línea y no puede actualizarla sin ella.</translation>
    </message>
    <message>
        <source>kebab-case-name (the file name)</source>
        <translation>nombre-con-guiones (el nombre del archivo)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>The entry&apos;s file name: lowercase words joined by dashes</source>
        <translation>El nombre del archivo de la entrada: palabras en minúsculas unidas por guiones</translation>
    </message>
    <message>
        <source>user: who the person is · feedback: how they want things done</source>
        <translation>user: quién es la persona · feedback: cómo quiere que se hagan las cosas</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>One line: what the agent sees in its prompt</source>
        <translation>Una línea: lo que el agente ve en su prompt</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descripción</translation>
    </message>
    <message>
        <source>Characters in the description; the agent reads it as one line of its prompt</source>
        <translation>Caracteres de la descripción; el agente la lee como una línea de su prompt</translation>
    </message>
    <message>
        <source>The entry itself, in markdown</source>
        <translation>La entrada en sí, en markdown</translation>
    </message>
    <message>
        <source>Body</source>
        <translation>Cuerpo</translation>
    </message>
    <message>
        <source>The entry itself, in markdown, as the agent reads it</source>
        <translation>La entrada en sí, en markdown, tal como la lee el agente</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>&amp;Nombre</translation>
    </message>
    <message>
        <source>T&amp;ype</source>
        <translation>&amp;Tipo</translation>
    </message>
    <message>
        <source>&amp;Description</source>
        <translation>&amp;Descripción</translation>
    </message>
    <message>
        <source>name</source>
        <translation>el nombre</translation>
    </message>
    <message>
        <source>description</source>
        <translation>la descripción</translation>
    </message>
    <message>
        <source>body</source>
        <translation>el cuerpo</translation>
    </message>
    <message>
        <source>Open anyway</source>
        <translation>Abrir de todos modos</translation>
    </message>
    <message>
        <source>Read the whole file into the editor (in the background; the window stays usable)</source>
        <translation>Lee el archivo entero en el editor (en segundo plano; la ventana sigue disponible)</translation>
    </message>
    <message>
        <source>The file name; change it with Rename (F2)</source>
        <translation>El nombre del archivo; cámbialo con Renombrar (F2)</translation>
    </message>
    <message>
        <source>Read-only: {reasons}</source>
        <translation>Solo lectura: {reasons}</translation>
    </message>
    <message>
        <source>Read-only.</source>
        <translation>Solo lectura.</translation>
    </message>
    <message>
        <source>The file is {size} MB: only the first {kb} KB are shown, read-only, so the window stays quick. Open anyway reads the whole file (you can go on working meanwhile).</source>
        <translation>El archivo ocupa {size} MB: solo se muestran los primeros {kb} KB, en solo lectura, para que la ventana siga ágil. Abrir de todos modos lee el archivo entero (puedes seguir trabajando mientras tanto).</translation>
    </message>
    <message>
        <source>Loading the text into the editor: {percent}%…</source>
        <translation>Cargando el texto en el editor: {percent} %…</translation>
    </message>
    <message>
        <source>The new entry&apos;s file name: lowercase words joined by dashes</source>
        <translation>El nombre del archivo de la nueva entrada: palabras en minúsculas unidas por guiones</translation>
    </message>
    <message>
        <source>Type a name.</source>
        <translation>Escribe un nombre.</translation>
    </message>
    <message>
        <source>{count} characters: longer than the {limit} the agent&apos;s list reads well</source>
        <translation>{count} caracteres: más que los {limit} que la lista del agente lee bien</translation>
    </message>
    <message>
        <source>{count} of {limit} characters</source>
        <translation>{count} de {limit} caracteres</translation>
    </message>
</context>
<context>
    <name>EntryListView</name>
    <message>
        <source>Entries in the agent&apos;s order, most recent first (Ctrl+L to focus)</source>
        <translation>Entradas en el orden del agente, las más recientes primero (Ctrl+L para ir a ellas)</translation>
    </message>
    <message>
        <source>Entries</source>
        <translation>Entradas</translation>
    </message>
    <message>
        <source>The agent&apos;s memory of the person, one entry per row, in the agent&apos;s order. A row marked • holds unsaved edits.</source>
        <translation>La memoria de la persona que guarda el agente, una entrada por fila, en el orden del agente. Una fila marcada con • tiene cambios sin guardar.</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <source>it is not a file</source>
        <translation>no es un archivo</translation>
    </message>
    <message>
        <source>Export observations to JSON</source>
        <translation>Exportar observaciones a JSON</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>Archivos JSON (*.json)</translation>
    </message>
    <message>
        <source>Choose where to make the folder of Markdown files</source>
        <translation>Elige dónde crear la carpeta de archivos Markdown</translation>
    </message>
    <message>
        <source>Export the chat to Markdown</source>
        <translation>Exportar el chat a Markdown</translation>
    </message>
    <message>
        <source>Markdown files (*.md)</source>
        <translation>Archivos Markdown (*.md)</translation>
    </message>
    <message>
        <source>Export the memory folder to a zip</source>
        <translation>Exportar la carpeta de memoria a un zip</translation>
    </message>
    <message>
        <source>Zip archives (*.zip)</source>
        <translation>Archivos zip (*.zip)</translation>
    </message>
    <message>
        <source>Exporting</source>
        <translation>Exportando</translation>
    </message>
    <message>
        <source>Export progress</source>
        <translation>Progreso de la exportación</translation>
    </message>
    <message>
        <source>Exporting to “{path}”…</source>
        <translation>Exportando a “{path}”…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Cancel the export</source>
        <translation>Cancelar la exportación</translation>
    </message>
    <message>
        <source>Export cancelled; nothing was written.</source>
        <translation>Exportación cancelada; no se escribió nada.</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportar</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>La exportación falló</translation>
    </message>
    <message>
        <source>Exported {n} observation to “{path}”.</source>
        <translation>Se exportó {n} observación a “{path}”.</translation>
    </message>
    <message>
        <source>Exported {n} observations to “{path}”.</source>
        <translation>Se exportaron {n} observaciones a “{path}”.</translation>
    </message>
    <message>
        <source>Exported the chat and its {n} saved observation to “{path}”.</source>
        <translation>Se exportó el chat y su {n} observación guardada a “{path}”.</translation>
    </message>
    <message>
        <source>Exported the chat and its {n} saved observations to “{path}”.</source>
        <translation>Se exportó el chat y sus {n} observaciones guardadas a “{path}”.</translation>
    </message>
    <message>
        <source>Exported {n} entry to “{path}”.</source>
        <translation>Se exportó {n} entrada a “{path}”.</translation>
    </message>
    <message>
        <source>Exported {n} entries to “{path}”.</source>
        <translation>Se exportaron {n} entradas a “{path}”.</translation>
    </message>
    <message>
        <source>{n} file was left out: {files}.</source>
        <translation>Se dejó fuera {n} archivo: {files}.</translation>
    </message>
    <message>
        <source>{n} files were left out: {files}.</source>
        <translation>Se dejaron fuera {n} archivos: {files}.</translation>
    </message>
    <message>
        <source>“{path}” is a folder: choose a file name for the export; nothing was written.</source>
        <translation>“{path}” es una carpeta: elige un nombre de archivo para la exportación; no se escribió nada.</translation>
    </message>
    <message>
        <source>“{path}” already exists: choose another place; nothing was written.</source>
        <translation>“{path}” ya existe: elige otro lugar; no se escribió nada.</translation>
    </message>
    <message>
        <source>Could not export to “{path}”: the disk is full ({reason}). Free some space or choose another place; nothing was written.</source>
        <translation>No se pudo exportar a “{path}”: el disco está lleno ({reason}). Libera espacio o elige otro lugar; no se escribió nada.</translation>
    </message>
    <message>
        <source>There is no chat “{chat}” in {path} any more; nothing was exported.</source>
        <translation>Ya no hay ningún chat “{chat}” en {path}; no se exportó nada.</translation>
    </message>
    <message>
        <source>it cannot be read ({reason})</source>
        <translation>no se puede leer ({reason})</translation>
    </message>
    <message>
        <source>Could not export to “{path}”: Memory Desk may not write there ({reason}). Choose a folder you can write to; nothing was written.</source>
        <translation>No se pudo exportar a “{path}”: Memory Desk no tiene permiso para escribir ahí ({reason}). Elige una carpeta en la que puedas escribir; no se escribió nada.</translation>
    </message>
    <message>
        <source>a link to “{target}”, outside the folder</source>
        <translation>un enlace a “{target}”, fuera de la carpeta</translation>
    </message>
    <message>
        <source>Could not export to “{path}”: its folder does not exist ({reason}). Choose another place; nothing was written.</source>
        <translation>No se pudo exportar a “{path}”: su carpeta no existe ({reason}). Elige otro lugar; no se escribió nada.</translation>
    </message>
    <message>
        <source>Could not export to “{path}”: {reason}. Nothing was written.</source>
        <translation>No se pudo exportar a “{path}”: {reason}. No se escribió nada.</translation>
    </message>
</context>
<context>
    <name>FilterBar</name>
    <message>
        <source>Project</source>
        <translation>Proyecto</translation>
    </message>
    <message>
        <source>Personal</source>
        <translation>Personal</translation>
    </message>
    <message>
        <source>Scope filter</source>
        <translation>Filtro de ámbito</translation>
    </message>
    <message>
        <source>Project observations, personal ones (seen from every project), or both</source>
        <translation>Observaciones del proyecto, personales (visibles desde todos los proyectos) o ambas</translation>
    </message>
    <message>
        <source>All scopes</source>
        <translation>Todos los ámbitos</translation>
    </message>
    <message>
        <source>Pinned only</source>
        <translation>Solo fijadas</translation>
    </message>
    <message>
        <source>Show only pinned observations (always in the agent&apos;s context)</source>
        <translation>Mostrar solo las observaciones fijadas (siempre en el contexto del agente)</translation>
    </message>
    <message>
        <source>Show forgotten</source>
        <translation>Mostrar olvidadas</translation>
    </message>
    <message>
        <source>Also show forgotten observations, in grey, to restore them</source>
        <translation>Mostrar también las observaciones olvidadas, en gris, para restaurarlas</translation>
    </message>
    <message>
        <source>Day filter</source>
        <translation>Filtro por día</translation>
    </message>
    <message>
        <source>Search titles, content and topic keys  (Ctrl+F)</source>
        <translation>Buscar en títulos, contenido y claves de tema  (Ctrl+F)</translation>
    </message>
    <message>
        <source>Search observations</source>
        <translation>Buscar observaciones</translation>
    </message>
    <message>
        <source>Every word must match, anywhere in the title, content or topic key; the text is taken literally. Up/Down move in the table, Return reads the observation, Esc clears the search</source>
        <translation>Todas las palabras deben aparecer, en cualquier parte del título, el contenido o la clave de tema; el texto se toma literalmente. Arriba/Abajo mueven por la tabla, Intro lee la observación, Esc borra la búsqueda</translation>
    </message>
    <message>
        <source>Project filter</source>
        <translation>Filtro de proyecto</translation>
    </message>
    <message>
        <source>Show one project only</source>
        <translation>Mostrar un solo proyecto</translation>
    </message>
    <message>
        <source>All projects</source>
        <translation>Todos los proyectos</translation>
    </message>
    <message>
        <source>Types to show</source>
        <translation>Tipos que mostrar</translation>
    </message>
    <message>
        <source>All types</source>
        <translation>Todos los tipos</translation>
    </message>
    <message>
        <source>Saved on {day}  ✕</source>
        <translation>Guardado el {day}  ✕</translation>
    </message>
    <message>
        <source>Showing only what was saved on {day}; click to show every day</source>
        <translation>Solo se muestra lo guardado el {day}; haga clic para mostrar todos los días</translation>
    </message>
    <message>
        <source>Show only some types (several can be chosen)</source>
        <translation>Mostrar solo algunos tipos (se pueden elegir varios)</translation>
    </message>
    <message>
        <source>Type: {type}</source>
        <translation>Tipo: {type}</translation>
    </message>
    <message>
        <source>Types: {n}</source>
        <translation>Tipos: {n}</translation>
    </message>
    <message>
        <source>Showing only: {types} (several can be chosen)</source>
        <translation>Solo se muestra: {types} (se pueden elegir varios)</translation>
    </message>
</context>
<context>
    <name>FolderProblemsBanner</name>
    <message>
        <source>Folder problems</source>
        <translation>Problemas de la carpeta</translation>
    </message>
    <message>
        <source>The agent cannot read its memory of you from this folder.</source>
        <translation>El agente no puede leer de esta carpeta lo que recuerda de ti.</translation>
    </message>
    <message>
        <source>The agent then no longer reads it as an entry (Ctrl+Z undoes it)</source>
        <translation>Así el agente deja de leerlo como una entrada (Ctrl+Z lo deshace)</translation>
    </message>
</context>
<context>
    <name>FolderWatcher</name>
    <message>
        <source>File watcher error: {reason}</source>
        <translation>Error del vigilante de archivos: {reason}</translation>
    </message>
    <message>
        <source>Cannot watch folders for changes: {reason}</source>
        <translation>No se pueden vigilar los cambios de las carpetas: {reason}</translation>
    </message>
    <message>
        <source>Cannot watch {path}: {reason}</source>
        <translation>No se puede vigilar {path}: {reason}</translation>
    </message>
    <message>
        <source>the system&apos;s limit on watched folders is reached ({reason})</source>
        <translation>se alcanzó el límite del sistema de carpetas vigiladas ({reason})</translation>
    </message>
</context>
<context>
    <name>HiddenCharacters</name>
    <message>
        <source>line {line}, character {column}</source>
        <translation>línea {line}, carácter {column}</translation>
    </message>
    <message>
        <source>character {column}</source>
        <translation>carácter {column}</translation>
    </message>
    <message>
        <source>{listed}; and {count} more</source>
        <translation>{listed}; y {count} más</translation>
    </message>
    <message>
        <source>Hidden characters in the {field}, invisible here: {listed}. They are kept as they are unless you delete them; elsewhere they show as ⟨U+…⟩.</source>
        <translation>Caracteres ocultos en {field}, invisibles aquí: {listed}. Se conservan tal cual salvo que los borres; en otros lugares se muestran como ⟨U+…⟩.</translation>
    </message>
</context>
<context>
    <name>IndexHealth</name>
    <message>
        <source>{path}: the database and its search index are healthy</source>
        <translation>{path}: la base de datos y su índice de búsqueda están sanos</translation>
    </message>
    <message>
        <source>The database could not be checked: {problem}</source>
        <translation>No se pudo comprobar la base de datos: {problem}</translation>
    </message>
</context>
<context>
    <name>IndexHealthBanner</name>
    <message>
        <source>Database problem</source>
        <translation>Problema en la base de datos</translation>
    </message>
    <message>
        <source>Dismiss this warning</source>
        <translation>Descartar este aviso</translation>
    </message>
    <message>
        <source>Dismiss this warning (it comes back when the database is opened again)</source>
        <translation>Descartar este aviso (vuelve cuando se abra de nuevo la base de datos)</translation>
    </message>
</context>
<context>
    <name>Journal</name>
    <message>
        <source>The journal was closed; open it again</source>
        <translation>El diario se cerró; ábrelo de nuevo</translation>
    </message>
    <message>
        <source>Memory Desk&apos;s journal {path} cannot be read ({detail}). Clear the journal in the settings to start a new one; the agents&apos; memories are not affected</source>
        <translation>No se puede leer el diario de Memory Desk {path} ({detail}). Vacía el diario en los ajustes para empezar uno nuevo; las memorias de los agentes no se ven afectadas</translation>
    </message>
    <message>
        <source>Could not open Memory Desk&apos;s journal {path} ({detail}); check that its folder can be written</source>
        <translation>No se pudo abrir el diario de Memory Desk {path} ({detail}); comprueba que se puede escribir en su carpeta</translation>
    </message>
    <message>
        <source>Memory Desk&apos;s first look at {path} stopped before its end ({detail}); it will look again at the next change</source>
        <translation>La primera lectura de {path} por Memory Desk se detuvo antes de terminar ({detail}); volverá a leerla en el próximo cambio</translation>
    </message>
    <message>
        <source>Memory Desk&apos;s history of changes had to start again: its file {path} was found empty (after a crash, or a full disk). What the agents changed before now is not listed; what they change from now on is.</source>
        <translation>El historial de cambios de Memory Desk tuvo que empezar de nuevo: su archivo {path} estaba vacío (tras un cierre inesperado o un disco lleno). Lo que los agentes cambiaron antes de ahora no aparece; lo que cambien a partir de ahora, sí.</translation>
    </message>
    <message>
        <source>Memory Desk could not compare {path} with what it last saw ({detail}); it will try again at the next change</source>
        <translation>Memory Desk no pudo comparar {path} con lo que vio la última vez ({detail}); lo intentará de nuevo en el próximo cambio</translation>
    </message>
    <message>
        <source>Memory Desk could not list {path} to compare it with what it last saw ({detail})</source>
        <translation>Memory Desk no pudo listar {path} para compararla con lo que vio la última vez ({detail})</translation>
    </message>
</context>
<context>
    <name>LiveFiles</name>
    <message>
        <source>Cannot read {path}: {reason}</source>
        <translation>No se puede leer {path}: {reason}</translation>
    </message>
</context>
<context>
    <name>LiveIndicator</name>
    <message>
        <source>Live reload</source>
        <translation>Recarga en vivo</translation>
    </message>
    <message>
        <source>{state} · {time}</source>
        <translation>{state} · {time}</translation>
    </message>
    <message>
        <source>Last change from disk: {time}</source>
        <translation>Último cambio en el disco: {time}</translation>
    </message>
    <message>
        <source>⏸ Paused</source>
        <translation>⏸ En pausa</translation>
    </message>
    <message>
        <source>Live reload is paused: click to follow the agents again</source>
        <translation>La recarga en vivo está en pausa: haz clic para volver a seguir a los agentes</translation>
    </message>
    <message>
        <source>Live reload is on: what agents write shows at once. Click to pause.</source>
        <translation>La recarga en vivo está activa: lo que escriben los agentes se muestra al momento. Haz clic para pausarla.</translation>
    </message>
    <message>
        <source>● Live</source>
        <translation>● En vivo</translation>
    </message>
    <message>
        <source>File events are not available here, so folders are polled: {reason}</source>
        <translation>Aquí no hay eventos de archivos, así que las carpetas se consultan periódicamente: {reason}</translation>
    </message>
    <message>
        <source>● Live (polling)</source>
        <translation>● En vivo (consultando)</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <source>Memory Desk</source>
        <translation>Memory Desk</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Deshacer</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Rehacer</translation>
    </message>
    <message>
        <source>Undo the last change (its text says which)</source>
        <translation>Deshace el último cambio (su texto dice cuál)</translation>
    </message>
    <message>
        <source>Redo the change just undone</source>
        <translation>Rehace el cambio que acabas de deshacer</translation>
    </message>
    <message>
        <source>{title} — {source}</source>
        <translation>{title} — {source}</translation>
    </message>
    <message>
        <source>{title} — {changes}</source>
        <translation>{title} — {changes}</translation>
    </message>
    <message>
        <source>{n} change to review</source>
        <translation>{n} cambio por revisar</translation>
    </message>
    <message>
        <source>{n} changes to review</source>
        <translation>{n} cambios por revisar</translation>
    </message>
    <message>
        <source>{store} is not open any more</source>
        <translation>{store} ya no está abierto</translation>
    </message>
    <message>
        <source>{name} is not in the list: clear the filter to see it</source>
        <translation>{name} no está en la lista: borra el filtro para verla</translation>
    </message>
    <message>
        <source>The history of changes is cleared</source>
        <translation>Se ha borrado el historial de cambios</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>&amp;Tema</translation>
    </message>
    <message>
        <source>Follow the &amp;system</source>
        <translation>Seguir al &amp;sistema</translation>
    </message>
    <message>
        <source>Light or dark as the desktop is</source>
        <translation>Claro u oscuro, como el escritorio</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>&amp;Claro</translation>
    </message>
    <message>
        <source>Always light</source>
        <translation>Siempre claro</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>&amp;Oscuro</translation>
    </message>
    <message>
        <source>Always dark</source>
        <translation>Siempre oscuro</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Idioma</translation>
    </message>
    <message>
        <source>The desktop&apos;s language when it is Spanish, else English</source>
        <translation>El idioma del escritorio si es español; si no, inglés</translation>
    </message>
    <message>
        <source>&amp;English</source>
        <translation>&amp;English</translation>
    </message>
    <message>
        <source>E&amp;spañol</source>
        <translation>E&amp;spañol</translation>
    </message>
    <message>
        <source>Open &amp;database…</source>
        <translation>Abrir &amp;base de datos…</translation>
    </message>
    <message>
        <source>Open an Alisio memory.sqlite</source>
        <translation>Abre un memory.sqlite de Alisio</translation>
    </message>
    <message>
        <source>Open &amp;folder…</source>
        <translation>Abrir &amp;carpeta…</translation>
    </message>
    <message>
        <source>Open an agent&apos;s memory folder</source>
        <translation>Abrir la carpeta de memoria de un agente</translation>
    </message>
    <message>
        <source>Open the d&amp;emo</source>
        <translation>Abrir la d&amp;emo</translation>
    </message>
    <message>
        <source>Open a made-up memory to explore; your own files are not touched</source>
        <translation>Abre una memoria inventada para explorar; tus archivos no se tocan</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <source>Quit Memory Desk</source>
        <translation>Salir de Memory Desk</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Editar</translation>
    </message>
    <message>
        <source>&amp;Observation</source>
        <translation>&amp;Observación</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>&amp;Herramientas</translation>
    </message>
    <message>
        <source>&amp;Check database</source>
        <translation>&amp;Comprobar base de datos</translation>
    </message>
    <message>
        <source>Check the shown Alisio database and its search index again (after a repair)</source>
        <translation>Vuelve a comprobar la base de datos de Alisio mostrada y su índice de búsqueda (tras una reparación)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ver</translation>
    </message>
    <message>
        <source>&amp;Observations</source>
        <translation>&amp;Observaciones</translation>
    </message>
    <message>
        <source>Show Alisio&apos;s observations</source>
        <translation>Muestra las observaciones de Alisio</translation>
    </message>
    <message>
        <source>&amp;Memory of the person</source>
        <translation>&amp;Memoria de la persona</translation>
    </message>
    <message>
        <source>Show the agent&apos;s memory of the person</source>
        <translation>Muestra la memoria que el agente guarda de la persona</translation>
    </message>
    <message>
        <source>&amp;Chats</source>
        <translation>&amp;Chats</translation>
    </message>
    <message>
        <source>Show Alisio&apos;s chats: what each saved, its summary and the context it was given</source>
        <translation>Mostrar los chats de Alisio: qué guardó cada uno, su resumen y el contexto que recibió</translation>
    </message>
    <message>
        <source>O&amp;verview</source>
        <translation>&amp;Vista general</translation>
    </message>
    <message>
        <source>Show counts and charts of what the agents remember</source>
        <translation>Mostrar recuentos y gráficos de lo que recuerdan los agentes</translation>
    </message>
    <message>
        <source>&amp;Pruning assistant</source>
        <translation>Asistente de &amp;poda</translation>
    </message>
    <message>
        <source>Find duplicates, stale and oversized memories to forget</source>
        <translation>Encontrar memorias duplicadas, obsoletas o demasiado grandes para olvidarlas</translation>
    </message>
    <message>
        <source>Since you last &amp;looked</source>
        <translation>Desde la última &amp;vez que miraste</translation>
    </message>
    <message>
        <source>Show what the agents changed since you last looked</source>
        <translation>Mostrar lo que cambiaron los agentes desde la última vez que miraste</translation>
    </message>
    <message>
        <source>Show Memory Desk in English</source>
        <translation>Mostrar Memory Desk en inglés</translation>
    </message>
    <message>
        <source>Show Memory Desk in Spanish</source>
        <translation>Mostrar Memory Desk en español</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>Ay&amp;uda</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Atajos de teclado</translation>
    </message>
    <message>
        <source>List every keyboard shortcut</source>
        <translation>Lista todos los atajos de teclado</translation>
    </message>
    <message>
        <source>&amp;About Memory Desk</source>
        <translation>A&amp;cerca de Memory Desk</translation>
    </message>
    <message>
        <source>About Memory Desk</source>
        <translation>Acerca de Memory Desk</translation>
    </message>
    <message>
        <source>E&amp;ntry</source>
        <translation>E&amp;ntrada</translation>
    </message>
    <message>
        <source>The demo could not be built: {reason}</source>
        <translation>No se pudo crear la demo: {reason}</translation>
    </message>
    <message>
        <source>demo: {folder}</source>
        <translation>demo: {folder}</translation>
    </message>
    <message>
        <source>Memory Desk — demo</source>
        <translation>Memory Desk — demo</translation>
    </message>
    <message>
        <source>The demo&apos;s changes could not be made: {reason}</source>
        <translation>No se pudieron hacer los cambios de la demo: {reason}</translation>
    </message>
    <message>
        <source>{what}. Nothing is shown until a database is at that path.</source>
        <translation>{what}. No se muestra nada hasta que haya una base de datos en esa ruta.</translation>
    </message>
    <message>
        <source>Open an Alisio database to check it</source>
        <translation>Abre una base de datos de Alisio para comprobarla</translation>
    </message>
    <message>
        <source>Checking {path} …</source>
        <translation>Comprobando {path} …</translation>
    </message>
    <message>
        <source>Open an Alisio memory database</source>
        <translation>Abrir una base de datos de memoria de Alisio</translation>
    </message>
    <message>
        <source>SQLite databases (*.sqlite *.db *.sqlite3);;All files (*)</source>
        <translation>Bases de datos SQLite (*.sqlite *.db *.sqlite3);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Memory Desk {version}&lt;/b&gt;&lt;p&gt;Review, prune and hand-edit the memories your AI agents keep.&lt;/p&gt;</source>
        <translation>&lt;b&gt;Memory Desk {version}&lt;/b&gt;&lt;p&gt;Revisa, poda y corrige a mano las memorias que guardan tus agentes de IA.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>MessageBar</name>
    <message>
        <source>Message</source>
        <translation>Mensaje</translation>
    </message>
    <message>
        <source>Dismiss this message</source>
        <translation>Descartar este mensaje</translation>
    </message>
    <message>
        <source>Dismiss message</source>
        <translation>Descartar mensaje</translation>
    </message>
</context>
<context>
    <name>NextContext</name>
    <message>
        <source>this database has no injected_context table (schema 101): the plugin that wrote it did not record what it told a chat at its start</source>
        <translation>esta base de datos no tiene tabla injected_context (esquema 101): el plugin que la escribió no registraba lo que le decía a un chat al empezar</translation>
    </message>
    <message>
        <source>no chat of this project has a recorded context yet (chats that started before the plugin recorded it have none)</source>
        <translation>ningún chat de este proyecto tiene todavía un contexto registrado (los chats que empezaron antes de que el plugin lo registrara no lo tienen)</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>fijada</translation>
    </message>
    <message>
        <source>saved or revised since</source>
        <translation>guardada o revisada después</translation>
    </message>
    <message>
        <source>in the room others left</source>
        <translation>en el hueco que dejaron otras</translation>
    </message>
    <message>
        <source>forgotten</source>
        <translation>olvidada</translation>
    </message>
    <message>
        <source>deleted for good</source>
        <translation>borrada definitivamente</translation>
    </message>
    <message>
        <source>no longer visible from this project</source>
        <translation>ya no es visible desde este proyecto</translation>
    </message>
    <message>
        <source>unpinned</source>
        <translation>desfijada</translation>
    </message>
    <message>
        <source>no room within the budget</source>
        <translation>no cabe en el presupuesto</translation>
    </message>
    <message>
        <source>newer observations took its place</source>
        <translation>observaciones más recientes ocuparon su lugar</translation>
    </message>
    <message>
        <source>would be added: #{id} {title} ({reason})</source>
        <translation>se añadiría: #{id} {title} ({reason})</translation>
    </message>
    <message>
        <source>no longer included: #{id} {title} ({reason})</source>
        <translation>ya no se incluye: #{id} {title} ({reason})</translation>
    </message>
    <message>
        <source>Budget: {tokens} tokens, set in Alisio&apos;s config.</source>
        <translation>Presupuesto: {tokens} tokens, fijado en la configuración de Alisio.</translation>
    </message>
    <message>
        <source>Budget: {tokens} tokens, the plugin&apos;s default: this is not the database Alisio&apos;s config points to, so its setting does not apply here.</source>
        <translation>Presupuesto: {tokens} tokens, el valor por defecto del plugin: esta no es la base de datos a la que apunta la configuración de Alisio, así que su ajuste no se aplica aquí.</translation>
    </message>
    <message>
        <source>The next chat starts with no memory: this project has no session summary, no saved prompt and no observation it can see (its own or personal ones), so the plugin tells the chat nothing at all.</source>
        <translation>El próximo chat empieza sin memoria: este proyecto no tiene resumen de sesión, ni prompts guardados, ni observaciones que pueda ver (propias o personales), así que el plugin no le dice nada al chat.</translation>
    </message>
    <message>
        <source>What the plugin tells a chat of this project that starts now, from the database as it is: it changes as the agent saves.</source>
        <translation>Lo que el plugin le dice a un chat de este proyecto que empiece ahora, a partir de la base de datos tal como está: cambia a medida que el agente guarda.</translation>
    </message>
    <message>
        <source>The plugin asks for the last session summary, {pinned} pinned and {recent} recent observations and {prompts} prompts, and lays them out as shown; the new chat&apos;s id, unknown until it starts, shows as {mark}.</source>
        <translation>El plugin pide el último resumen de sesión, {pinned} observaciones fijadas y {recent} recientes y {prompts} prompts, y los dispone como se muestra; el id del chat nuevo, desconocido hasta que empiece, aparece como {mark}.</translation>
    </message>
    <message>
        <source>Next context: nothing (the chat starts with no memory)</source>
        <translation>Contexto siguiente: nada (el chat empieza sin memoria)</translation>
    </message>
    <message>
        <source>Next context: about {used} of {budget} tokens</source>
        <translation>Contexto siguiente: unos {used} de {budget} tokens</translation>
    </message>
    <message>
        <source>Next context</source>
        <translation>Contexto siguiente</translation>
    </message>
    <message>
        <source>The memory block the plugin injects if a chat starts now</source>
        <translation>El bloque de memoria que el plugin inyecta si un chat empieza ahora</translation>
    </message>
    <message>
        <source>Cannot read the next context: {reason}</source>
        <translation>No se puede leer el contexto siguiente: {reason}</translation>
    </message>
    <message>
        <source>Tokens are estimated as the plugin does, characters divided by 4: about {used} used.</source>
        <translation>Los tokens se estiman como lo hace el plugin, caracteres divididos entre 4: unos {used} usados.</translation>
    </message>
    <message>
        <source>Budget: {tokens} tokens, the plugin&apos;s default (Alisio&apos;s settings do not set one).</source>
        <translation>Presupuesto: {tokens} tokens, el predeterminado del plugin (la configuración de Alisio no fija ninguno).</translation>
    </message>
    <message>
        <source>Alisio&apos;s config turns the memory plugin off: while it is off, a new chat is told nothing from this database.</source>
        <translation>La configuración de Alisio desactiva el plugin de memoria: mientras esté desactivado, a un chat nuevo no se le dice nada de esta base de datos.</translation>
    </message>
    <message>
        <source>; {n} observation left out for lack of room</source>
        <translation>; {n} observación fuera por falta de espacio</translation>
    </message>
    <message>
        <source>; {n} observations left out for lack of room</source>
        <translation>; {n} observaciones fuera por falta de espacio</translation>
    </message>
    <message>
        <source>Last recorded context: not recorded ({reason})</source>
        <translation>Último contexto registrado: no registrado ({reason})</translation>
    </message>
    <message>
        <source>Last recorded context: chat {chat}, {date}</source>
        <translation>Último contexto registrado: chat {chat}, {date}</translation>
    </message>
    <message>
        <source>Choose a chat to see what the next chat of its project will be told.</source>
        <translation>Elija un chat para ver qué se le dirá al próximo chat de su proyecto.</translation>
    </message>
    <message>
        <source>The budget is the setting injectBudgetTokens in Alisio&apos;s config.json.</source>
        <translation>El presupuesto es el ajuste injectBudgetTokens del config.json de Alisio.</translation>
    </message>
    <message>
        <source>Last recorded context</source>
        <translation>Último contexto registrado</translation>
    </message>
    <message>
        <source>Exactly what the plugin told this project&apos;s last recorded chat</source>
        <translation>Exactamente lo que el plugin le dijo al último chat registrado de este proyecto</translation>
    </message>
    <message>
        <source>What the next chat would be told differently:</source>
        <translation>Qué se le diría de otro modo al próximo chat:</translation>
    </message>
    <message>
        <source>Changes since the last recorded context</source>
        <translation>Cambios desde el último contexto registrado</translation>
    </message>
    <message>
        <source>Open an observation with Enter or a double click</source>
        <translation>Abra una observación con Intro o con doble clic</translation>
    </message>
    <message>
        <source>Nothing to compare: no context was recorded for this project.</source>
        <translation>Nada que comparar: no se registró ningún contexto para este proyecto.</translation>
    </message>
    <message>
        <source>No change: the next chat would be told about the same observations as the last one.</source>
        <translation>Sin cambios: al próximo chat se le hablaría de las mismas observaciones que al último.</translation>
    </message>
    <message>
        <source>Reading the database…</source>
        <translation>Leyendo la base de datos…</translation>
    </message>
</context>
<context>
    <name>ObservationCommands</name>
    <message>
        <source>Undo “{what}”</source>
        <translation>Deshacer «{what}»</translation>
    </message>
    <message>
        <source>Redo “{what}”</source>
        <translation>Rehacer «{what}»</translation>
    </message>
    <message>
        <source>Nothing was undone: an earlier change is still being written; try again once it is</source>
        <translation>No se deshizo nada: un cambio anterior aún se está escribiendo; vuelve a intentarlo cuando termine</translation>
    </message>
    <message>
        <source>Nothing was redone: an earlier change is still being written; try again once it is</source>
        <translation>No se rehízo nada: un cambio anterior aún se está escribiendo; vuelve a intentarlo cuando termine</translation>
    </message>
    <message>
        <source>Undone: {what}</source>
        <translation>Deshecho: {what}</translation>
    </message>
    <message>
        <source>You cancelled “{what}” while the agent was writing: nothing was written</source>
        <translation>Cancelaste «{what}» mientras el agente escribía: no se escribió nada</translation>
    </message>
    <message>
        <source>Nothing was undone (you cancelled); {keys} still offers “{what}”</source>
        <translation>No se deshizo nada (cancelaste); {keys} sigue ofreciendo «{what}»</translation>
    </message>
    <message>
        <source>Nothing was redone (you cancelled); redo still offers “{what}”</source>
        <translation>No se rehízo nada (cancelaste); rehacer sigue ofreciendo «{what}»</translation>
    </message>
    <message>
        <source>Pin {n} observation</source>
        <translation>Fijar {n} observación</translation>
    </message>
    <message>
        <source>Pin {n} observations</source>
        <translation>Fijar {n} observaciones</translation>
    </message>
    <message>
        <source>Unpin {n} observation</source>
        <translation>Desfijar {n} observación</translation>
    </message>
    <message>
        <source>Unpin {n} observations</source>
        <translation>Desfijar {n} observaciones</translation>
    </message>
    <message>
        <source>Pinned {n} observation</source>
        <translation>{n} observación fijada</translation>
    </message>
    <message>
        <source>Pinned {n} observations</source>
        <translation>{n} observaciones fijadas</translation>
    </message>
    <message>
        <source>Unpinned {n} observation</source>
        <translation>{n} observación desfijada</translation>
    </message>
    <message>
        <source>Unpinned {n} observations</source>
        <translation>{n} observaciones desfijadas</translation>
    </message>
    <message>
        <source>Forget {n} observation</source>
        <translation>Olvidar {n} observación</translation>
    </message>
    <message>
        <source>Forget {n} observations</source>
        <translation>Olvidar {n} observaciones</translation>
    </message>
    <message>
        <source>Forgot {n} observation ({keys} brings it back)</source>
        <translation>{n} observación olvidada ({keys} la recupera)</translation>
    </message>
    <message>
        <source>Forgot {n} observations ({keys} brings them back)</source>
        <translation>{n} observaciones olvidadas ({keys} las recupera)</translation>
    </message>
    <message>
        <source>{n} checked observation changed since the search (pinned, forgotten or deleted) and stays as it is</source>
        <translation>{n} observación marcada cambió desde la búsqueda (fijada, olvidada o eliminada) y se queda como está</translation>
    </message>
    <message>
        <source>{n} checked observations changed since the search (pinned, forgotten or deleted) and stay as they are</source>
        <translation>{n} observaciones marcadas cambiaron desde la búsqueda (fijadas, olvidadas o eliminadas) y se quedan como están</translation>
    </message>
    <message>
        <source>Restore {n} observation</source>
        <translation>Restaurar {n} observación</translation>
    </message>
    <message>
        <source>Restore {n} observations</source>
        <translation>Restaurar {n} observaciones</translation>
    </message>
    <message>
        <source>Restored {n} observation</source>
        <translation>{n} observación restaurada</translation>
    </message>
    <message>
        <source>Restored {n} observations</source>
        <translation>{n} observaciones restauradas</translation>
    </message>
    <message>
        <source>Restore and edit #{id}</source>
        <translation>Restaurar y editar #{id}</translation>
    </message>
    <message>
        <source>Edit #{id}</source>
        <translation>Editar #{id}</translation>
    </message>
    <message>
        <source>Restored and saved #{id}</source>
        <translation>#{id} restaurada y guardada</translation>
    </message>
    <message>
        <source>Saved #{id}</source>
        <translation>#{id} guardada</translation>
    </message>
    <message>
        <source>Save #{id} again as a new observation</source>
        <translation>Guardar #{id} de nuevo como observación nueva</translation>
    </message>
    <message>
        <source>Brought back #{id}</source>
        <translation>#{id} recuperada</translation>
    </message>
    <message>
        <source>Saved as new observation #{id} (the agent had deleted #{old})</source>
        <translation>Guardada como observación nueva #{id} (el agente había eliminado #{old})</translation>
    </message>
    <message>
        <source>Save #{id} again as #{new}</source>
        <translation>Guardar #{id} de nuevo como #{new}</translation>
    </message>
    <message>
        <source>{what} (#{id} is forgotten; Show forgotten lists it)</source>
        <translation>{what} (#{id} está olvidada; Mostrar olvidadas la muestra)</translation>
    </message>
    <message>
        <source>the topic choice also changed {rows} (Ctrl+Z puts it back)</source>
        <translation>la elección de clave de tema también cambió {rows} (Ctrl+Z lo deshace)</translation>
    </message>
</context>
<context>
    <name>ObservationConflict</name>
    <message>
        <source>Show what differs (Alt+C)</source>
        <translation>Muestra las diferencias (Alt+C)</translation>
    </message>
    <message>
        <source>Keep your text; saving will replace the new version (Alt+M)</source>
        <translation>Conserva tu texto; al guardar sustituirá a la versión nueva (Alt+M)</translation>
    </message>
    <message>
        <source>Drop your edits and show the new version (Alt+L)</source>
        <translation>Descarta tus cambios y muestra la versión nueva (Alt+L)</translation>
    </message>
    <message>
        <source>Keep editing; saving restores a forgotten observation (Alt+K)</source>
        <translation>Sigue editando; al guardar se restaura una observación olvidada (Alt+C)</translation>
    </message>
    <message>
        <source>Leave the form without saving (Alt+L)</source>
        <translation>Sal del formulario sin guardar (Alt+R)</translation>
    </message>
    <message>
        <source>Title: {title}
Type: {type}
Topic key: {topic_key}

{content}</source>
        <translation>Título: {title}
Tipo: {type}
Clave de tema: {topic_key}

{content}</translation>
    </message>
    <message>
        <source>#{id} (in the database)</source>
        <translation>#{id} (en la base de datos)</translation>
    </message>
    <message>
        <source>#{id} (yours)</source>
        <translation>#{id} (la tuya)</translation>
    </message>
    <message>
        <source>No differences: the database holds the same text as your form.</source>
        <translation>No hay diferencias: la base de datos tiene el mismo texto que tu formulario.</translation>
    </message>
    <message>
        <source>Compare: in the database vs yours</source>
        <translation>Comparar: en la base de datos frente a la tuya</translation>
    </message>
</context>
<context>
    <name>ObservationDetail</name>
    <message>
        <source>Observation</source>
        <translation>Observación</translation>
    </message>
    <message>
        <source>Select an observation to read it here.</source>
        <translation>Selecciona una observación para leerla aquí.</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Título</translation>
    </message>
    <message>
        <source>Every stored fact about the observation</source>
        <translation>Todos los datos guardados de la observación</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>Contenido</translation>
    </message>
    <message>
        <source>The observation&apos;s content as markdown. Links are not followed and nothing is loaded from it.</source>
        <translation>El contenido de la observación en markdown. No se siguen los enlaces ni se carga nada desde él.</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Topic key</source>
        <translation>Clave de tema</translation>
    </message>
    <message>
        <source>family/description, e.g. auth/token-refresh (optional)</source>
        <translation>familia/descripción, p. ej. auth/token-refresh (opcional)</translation>
    </message>
    <message>
        <source>Markdown; the agent writes the sections What, Why, Where and Learned.</source>
        <translation>Markdown; el agente escribe las secciones What, Why, Where y Learned.</translation>
    </message>
    <message>
        <source>**What** … **Why** … **Where** … **Learned** …</source>
        <translation>**What** … **Why** … **Where** … **Learned** …</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Guardar</translation>
    </message>
    <message>
        <source>Save the edit (Ctrl+S); Ctrl+Z undoes it</source>
        <translation>Guarda el cambio (Ctrl+S); Ctrl+Z lo deshace</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Leave the form without saving (Esc)</source>
        <translation>Sal del formulario sin guardar (Esc)</translation>
    </message>
    <message>
        <source>Save the edit form</source>
        <translation>Guardar el formulario de edición</translation>
    </message>
    <message>
        <source>Leave the edit form without saving</source>
        <translation>Salir del formulario de edición sin guardar</translation>
    </message>
    <message>
        <source>&amp;Title</source>
        <translation>&amp;Título</translation>
    </message>
    <message>
        <source>T&amp;ype</source>
        <translation>T&amp;ipo</translation>
    </message>
    <message>
        <source>Topic &amp;key</source>
        <translation>Cla&amp;ve de tema</translation>
    </message>
    <message>
        <source>title</source>
        <translation>el título</translation>
    </message>
    <message>
        <source>topic key</source>
        <translation>la clave de tema</translation>
    </message>
    <message>
        <source>content</source>
        <translation>el contenido</translation>
    </message>
    <message>
        <source>Editing #{id}</source>
        <translation>Editando #{id}</translation>
    </message>
    <message>
        <source>Not saved: the observation changed in the database. Choose what to do in the banner above first.</source>
        <translation>No se guardó: la observación cambió en la base de datos. Elige antes qué hacer en el aviso de arriba.</translation>
    </message>
    <message>
        <source>Observation #{id} was changed by another program (revision {revision}) while you were editing it. Your text is still here.</source>
        <translation>Otro programa cambió la observación #{id} (revisión {revision}) mientras la editabas. Tu texto sigue aquí.</translation>
    </message>
    <message>
        <source>Another program forgot observation #{id} while you were editing it. Keep to go on (saving restores it), or Close.</source>
        <translation>Otro programa olvidó la observación #{id} mientras la editabas. Conservar para seguir (al guardar se restaura) o Cerrar.</translation>
    </message>
    <message>
        <source>Another program deleted observation #{id} while you were editing it. Keep to go on (saving creates it again, as a new observation), or Close.</source>
        <translation>Otro programa eliminó la observación #{id} mientras la editabas. Conservar para seguir (al guardar se crea de nuevo, como observación nueva) o Cerrar.</translation>
    </message>
    <message>
        <source>The title cannot be empty (blank space is dropped when it is stored).</source>
        <translation>El título no puede estar vacío (los espacios en blanco se quitan al guardarlo).</translation>
    </message>
    <message>
        <source>The content cannot be empty (blank space is dropped when it is stored).</source>
        <translation>El contenido no puede estar vacío (los espacios en blanco se quitan al guardarlo).</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>sí</translation>
    </message>
    <message>
        <source>no</source>
        <translation>no</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>Fijada</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Proyecto</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Ámbito</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>Chat</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Herramienta</translation>
    </message>
    <message>
        <source>Revisions</source>
        <translation>Revisiones</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>Duplicados</translation>
    </message>
    <message>
        <source>Reads</source>
        <translation>Lecturas</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Creada</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Actualizada</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>Vista por última vez</translation>
    </message>
    <message>
        <source>Last read</source>
        <translation>Última lectura</translation>
    </message>
    <message>
        <source>Forgotten</source>
        <translation>Olvidada</translation>
    </message>
    <message>
        <source>Unreadable</source>
        <translation>Ilegible</translation>
    </message>
    <message>
        <source>Project: {project}
Session: {session}</source>
        <translation>Proyecto: {project}
Chat: {session}</translation>
    </message>
    <message>
        <source>stored as {key}</source>
        <translation>se guarda como {key}</translation>
    </message>
    <message>
        <source>stored without a topic key</source>
        <translation>se guarda sin clave de tema</translation>
    </message>
    <message>
        <source>Open the whole text</source>
        <translation>Abrir el texto completo</translation>
    </message>
    <message>
        <source>Read and edit the whole content in the edit form (it loads without freezing the window)</source>
        <translation>Leer y editar todo el contenido en el formulario de edición (se carga sin congelar la ventana)</translation>
    </message>
    <message>
        <source>Shown: the first {shown} characters of {total}, as markdown. The whole text is stored; open it to read or edit all of it.</source>
        <translation>Se muestran los primeros {shown} caracteres de {total}, como markdown. El texto completo está guardado; ábrelo para leerlo o editarlo entero.</translation>
    </message>
</context>
<context>
    <name>ObservationTableModel</name>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Título</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Proyecto</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Ámbito</translation>
    </message>
    <message>
        <source>Topic key</source>
        <translation>Clave de tema</translation>
    </message>
    <message>
        <source>Rev.</source>
        <translation>Rev.</translation>
    </message>
    <message>
        <source>Dup.</source>
        <translation>Dup.</translation>
    </message>
    <message>
        <source>Reads</source>
        <translation>Lecturas</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Actualizada</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Creada</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>Fijada</translation>
    </message>
    <message>
        <source>Revisions</source>
        <translation>Revisiones</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>Duplicados</translation>
    </message>
    <message>
        <source>The observation&apos;s id in the database.</source>
        <translation>El id de la observación en la base de datos.</translation>
    </message>
    <message>
        <source>Pinned: always injected into the agent&apos;s context.</source>
        <translation>Fijada: siempre se inyecta en el contexto del agente.</translation>
    </message>
    <message>
        <source>What kind of memory this is.</source>
        <translation>Qué tipo de memoria es.</translation>
    </message>
    <message>
        <source>The title the agent gave it.</source>
        <translation>El título que le dio el agente.</translation>
    </message>
    <message>
        <source>The project it belongs to (the full id on hover over a cell).</source>
        <translation>El proyecto al que pertenece (el id completo al pasar por encima de una celda).</translation>
    </message>
    <message>
        <source>Either project or personal (personal rows are visible from every project).</source>
        <translation>project o personal (las filas personales se ven desde todos los proyectos).</translation>
    </message>
    <message>
        <source>Saves with the same topic key revise this row.</source>
        <translation>Los guardados con la misma clave de tema revisan esta fila.</translation>
    </message>
    <message>
        <source>Revisions: how many times a save rewrote it.</source>
        <translation>Revisiones: cuántas veces la reescribió un guardado.</translation>
    </message>
    <message>
        <source>Duplicates: exact repeats saved within 15 minutes.</source>
        <translation>Duplicados: repeticiones exactas guardadas en menos de 15 minutos.</translation>
    </message>
    <message>
        <source>Reads: how often the agent opened it whole.</source>
        <translation>Lecturas: cuántas veces la abrió entera el agente.</translation>
    </message>
    <message>
        <source>Last changed (exact time on hover).</source>
        <translation>Último cambio (hora exacta al pasar por encima).</translation>
    </message>
    <message>
        <source>First saved (exact time on hover).</source>
        <translation>Primer guardado (hora exacta al pasar por encima).</translation>
    </message>
    <message>
        <source>Click to sort; a third click goes back to the default order.</source>
        <translation>Haz clic para ordenar; un tercer clic vuelve al orden por defecto.</translation>
    </message>
    <message>
        <source>Forgotten {when}</source>
        <translation>Olvidada el {when}</translation>
    </message>
    <message>
        <source>Cannot be read as stored:</source>
        <translation>No se puede leer tal como está guardada:</translation>
    </message>
    <message>
        <source>The agent changed this row since you last looked: see View ▸ Since you last looked.</source>
        <translation>El agente cambió esta fila desde la última vez que miraste: ver Ver ▸ Desde la última vez que miraste.</translation>
    </message>
    <message>
        <source>New: just arrived</source>
        <translation>Nueva: acaba de llegar</translation>
    </message>
    <message>
        <source>Changed just now</source>
        <translation>Cambiada ahora mismo</translation>
    </message>
    <message>
        <source>Unsaved edits in the form</source>
        <translation>Cambios sin guardar en el formulario</translation>
    </message>
</context>
<context>
    <name>Observations</name>
    <message>
        <source>a number</source>
        <translation>un número</translation>
    </message>
    <message>
        <source>a decimal number</source>
        <translation>un número decimal</translation>
    </message>
    <message>
        <source>text</source>
        <translation>texto</translation>
    </message>
    <message>
        <source>binary data</source>
        <translation>datos binarios</translation>
    </message>
    <message>
        <source>nothing (NULL)</source>
        <translation>nada (NULL)</translation>
    </message>
    <message>
        <source>Nothing was written: you cancelled while the agent wrote</source>
        <translation>No se escribió nada: cancelaste mientras el agente escribía</translation>
    </message>
    <message>
        <source>An observation needs a title (the agent&apos;s plugin refuses an empty one); type one before saving</source>
        <translation>Una observación necesita un título (el plugin del agente rechaza uno vacío); escribe uno antes de guardar</translation>
    </message>
    <message>
        <source>An observation needs some content (the agent&apos;s plugin refuses an empty one); write it before saving</source>
        <translation>Una observación necesita contenido (el plugin del agente rechaza uno vacío); escríbelo antes de guardar</translation>
    </message>
    <message>
        <source>{column}: {found} where the plugin stores a whole number</source>
        <translation>{column}: {found} donde el plugin guarda un número entero</translation>
    </message>
    <message>
        <source>{column}: not valid UTF-8 text (the unreadable bytes show as �)</source>
        <translation>{column}: no es texto UTF-8 válido (los bytes ilegibles se muestran como �)</translation>
    </message>
    <message>
        <source>{column}: {found} where the plugin stores text</source>
        <translation>{column}: {found} donde el plugin guarda texto</translation>
    </message>
    <message>
        <source>Observation #{id} no longer exists (deleted since it was read)</source>
        <translation>La observación #{id} ya no existe (se eliminó después de leerla)</translation>
    </message>
    <message>
        <source>Observation #{id} cannot be saved again: {problems}. Saving would store what Memory Desk shows instead of what is there; retype those fields in the edit form, or leave the row as it is</source>
        <translation>La observación #{id} no se puede guardar de nuevo: {problems}. Guardar almacenaría lo que muestra Memory Desk en lugar de lo que hay; vuelve a escribir esos campos en el formulario de edición, o deja la fila como está</translation>
    </message>
    <message>
        <source>“{type}” is not an observation type; use one of: {types}</source>
        <translation>“{type}” no es un tipo de observación; usa uno de: {types}</translation>
    </message>
    <message>
        <source>Observation #{id} was changed by the agent since you opened it; reload it and make your edit again</source>
        <translation>El agente cambió la observación #{id} desde que la abriste; recárgala y vuelve a hacer tu edición</translation>
    </message>
    <message>
        <source>Observation #{id} changed after your edit (the agent revised it); the edit cannot be undone without losing that change</source>
        <translation>La observación #{id} cambió después de tu edición (el agente la revisó); la edición no se puede deshacer sin perder ese cambio</translation>
    </message>
    <message>
        <source>Observation #{id} cannot be edited: {problems}. Saving would store what Memory Desk shows instead of what is there; retype those fields in the edit form, or leave the row as it is</source>
        <translation>La observación #{id} no se puede editar: {problems}. Guardar almacenaría lo que muestra Memory Desk en lugar de lo que hay; vuelve a escribir esos campos en el formulario de edición, o deja la fila como está</translation>
    </message>
    <message>
        <source>The text contains a character that cannot be stored ({reason}: {character}); remove it</source>
        <translation>El texto contiene un carácter que no se puede guardar ({reason}: {character}); quítalo</translation>
    </message>
</context>
<context>
    <name>ObservationsPage</name>
    <message>
        <source>Delete permanently</source>
        <translation>Eliminar definitivamente</translation>
    </message>
    <message>
        <source>Delete {n} observation permanently?</source>
        <translation>¿Eliminar {n} observación definitivamente?</translation>
    </message>
    <message>
        <source>Delete {n} observations permanently?</source>
        <translation>¿Eliminar {n} observaciones definitivamente?</translation>
    </message>
    <message>
        <source>This cannot be undone. To hide it from the agent but keep it, use Forget.</source>
        <translation>No se puede deshacer. Para ocultarla al agente pero conservarla, usa Olvidar.</translation>
    </message>
    <message>
        <source>This cannot be undone. To hide them from the agent but keep them, use Forget.</source>
        <translation>No se puede deshacer. Para ocultarlas al agente pero conservarlas, usa Olvidar.</translation>
    </message>
    <message>
        <source>Delete {n} observation</source>
        <translation>Eliminar {n} observación</translation>
    </message>
    <message>
        <source>Delete {n} observations</source>
        <translation>Eliminar {n} observaciones</translation>
    </message>
    <message>
        <source>Observations</source>
        <translation>Observaciones</translation>
    </message>
    <message>
        <source>The observations of this database, one per row. Return reads the current one, Del forgets, Ctrl+P pins, F2 edits; the header&apos;s menu shows or hides columns</source>
        <translation>Las observaciones de esta base de datos, una por fila. Intro lee la actual, Supr olvida, Ctrl+P fija, F2 edita; el menú de la cabecera muestra u oculta columnas</translation>
    </message>
    <message>
        <source>Pin</source>
        <translation>Fijar</translation>
    </message>
    <message>
        <source>Pin or unpin the selected observations</source>
        <translation>Fijar o desfijar las observaciones seleccionadas</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>Olvidar</translation>
    </message>
    <message>
        <source>Forget the selected observations (undo brings them back)</source>
        <translation>Olvidar las observaciones seleccionadas (deshacer las recupera)</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Restaurar</translation>
    </message>
    <message>
        <source>Bring the selected forgotten observations back</source>
        <translation>Recuperar las observaciones olvidadas seleccionadas</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Editar</translation>
    </message>
    <message>
        <source>Edit the current observation</source>
        <translation>Editar la observación actual</translation>
    </message>
    <message>
        <source>Delete permanently…</source>
        <translation>Eliminar definitivamente…</translation>
    </message>
    <message>
        <source>Delete the selected observations for good (cannot be undone)</source>
        <translation>Eliminar para siempre las observaciones seleccionadas (no se puede deshacer)</translation>
    </message>
    <message>
        <source>Find</source>
        <translation>Buscar</translation>
    </message>
    <message>
        <source>Go to the search box</source>
        <translation>Ir al cuadro de búsqueda</translation>
    </message>
    <message>
        <source>Search as the agent…</source>
        <translation>Buscar como el agente…</translation>
    </message>
    <message>
        <source>See what the agent&apos;s memory_search would return for the search text</source>
        <translation>Ver qué devolvería memory_search del agente para el texto buscado</translation>
    </message>
    <message>
        <source>Open its chat</source>
        <translation>Abrir su chat</translation>
    </message>
    <message>
        <source>Show the chat that saved the current observation: its summary, prompts and loaded context</source>
        <translation>Mostrar el chat que guardó la observación actual: su resumen, sus prompts y su contexto cargado</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>Cronología</translation>
    </message>
    <message>
        <source>Show what was saved just before and after the current observation in its chat</source>
        <translation>Mostrar lo que se guardó justo antes y después de la observación actual en su chat</translation>
    </message>
    <message>
        <source>Export selected to &amp;JSON…</source>
        <translation>Exportar la selección a &amp;JSON…</translation>
    </message>
    <message>
        <source>Export selected to &amp;Markdown…</source>
        <translation>Exportar la selección a &amp;Markdown…</translation>
    </message>
    <message>
        <source>Export all to J&amp;SON…</source>
        <translation>Exportar todo a J&amp;SON…</translation>
    </message>
    <message>
        <source>Export all to Mar&amp;kdown…</source>
        <translation>Exportar todo a Mar&amp;kdown…</translation>
    </message>
    <message>
        <source>E&amp;xport</source>
        <translation>E&amp;xportar</translation>
    </message>
    <message>
        <source>No database open</source>
        <translation>Ninguna base de datos abierta</translation>
    </message>
    <message>
        <source>Showing the {shown} newest matches · reading the rest…</source>
        <translation>Se muestran las {shown} coincidencias más recientes · leyendo el resto…</translation>
    </message>
    <message>
        <source>Showing {shown} · {live} live · {forgotten} forgotten · {pinned} pinned</source>
        <translation>Mostrando {shown} · activas: {live} · olvidadas: {forgotten} · fijadas: {pinned}</translation>
    </message>
    <message>
        <source>Observation #{id} was changed by another program; showing the new version</source>
        <translation>Otro programa cambió la observación #{id}; se muestra la versión nueva</translation>
    </message>
    <message>
        <source>Observation #{id} was changed by another program; the form shows the new version</source>
        <translation>Otro programa cambió la observación #{id}; el formulario muestra la versión nueva</translation>
    </message>
    <message>
        <source>Up, Down, Page Up, Page Down</source>
        <translation>Arriba, Abajo, Re Pág, Av Pág</translation>
    </message>
    <message>
        <source>Move in the table from the search box</source>
        <translation>Moverse por la tabla desde el cuadro de búsqueda</translation>
    </message>
    <message>
        <source>Return</source>
        <translation>Intro</translation>
    </message>
    <message>
        <source>Read the current observation (from the search box or the table)</source>
        <translation>Leer la observación actual (desde el cuadro de búsqueda o la tabla)</translation>
    </message>
    <message>
        <source>Clear the search (in the search box)</source>
        <translation>Borrar la búsqueda (en el cuadro de búsqueda)</translation>
    </message>
    <message>
        <source>Saved searches (in the search box)</source>
        <translation>Búsquedas guardadas (en el cuadro de búsqueda)</translation>
    </message>
    <message>
        <source>Go back to the table (in the observation&apos;s text)</source>
        <translation>Volver a la tabla (en el texto de la observación)</translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation>Desfijar</translation>
    </message>
    <message>
        <source>The selected observations are already forgotten</source>
        <translation>Las observaciones seleccionadas ya están olvidadas</translation>
    </message>
    <message>
        <source>None of the selected observations is forgotten</source>
        <translation>Ninguna de las observaciones seleccionadas está olvidada</translation>
    </message>
    <message>
        <source>The previous change</source>
        <translation>El cambio anterior</translation>
    </message>
    <message>
        <source>“{what}” is still waiting for the agent to finish writing; wait for it, or Cancel it in the banner above, then try again</source>
        <translation>«{what}» sigue esperando a que el agente termine de escribir; espéralo o cancélalo en el aviso de arriba, y vuelve a intentarlo</translation>
    </message>
    <message>
        <source>“{what}” is still being written; try again in a moment</source>
        <translation>«{what}» aún se está escribiendo; vuelve a intentarlo en un momento</translation>
    </message>
    <message>
        <source>Not saved yet: {reason}</source>
        <translation>Aún no se ha guardado: {reason}</translation>
    </message>
    <message>
        <source>Cleared the search and filters to show #{id}</source>
        <translation>Se borraron la búsqueda y los filtros para mostrar #{id}</translation>
    </message>
    <message>
        <source>Delete {n} observation permanently</source>
        <translation>Eliminar {n} observación definitivamente</translation>
    </message>
    <message>
        <source>Delete {n} observations permanently</source>
        <translation>Eliminar {n} observaciones definitivamente</translation>
    </message>
    <message>
        <source>Deleted {n} observation permanently</source>
        <translation>{n} observación eliminada definitivamente</translation>
    </message>
    <message>
        <source>Deleted {n} observations permanently</source>
        <translation>{n} observaciones eliminadas definitivamente</translation>
    </message>
    <message>
        <source>You cancelled the delete: nothing was deleted</source>
        <translation>Cancelaste la eliminación: no se eliminó nada</translation>
    </message>
    <message>
        <source>Edit ▸ Undo</source>
        <translation>Editar ▸ Deshacer</translation>
    </message>
</context>
<context>
    <name>OverviewChart</name>
    <message>
        <source>Observations saved per day</source>
        <translation>Observaciones guardadas por día</translation>
    </message>
    <message>
        <source>{day}: nothing saved</source>
        <translation>{day}: no se guardó nada</translation>
    </message>
    <message>
        <source>{day}: {n} observation saved</source>
        <translation>{day}: {n} observación guardada</translation>
    </message>
    <message>
        <source>{day}: {n} observations saved</source>
        <translation>{day}: {n} observaciones guardadas</translation>
    </message>
    <message>
        <source>{type}: {n}</source>
        <translation>{type}: {n}</translation>
    </message>
    <message>
        <source>No days to show.</source>
        <translation>No hay días que mostrar.</translation>
    </message>
    <message>
        <source>The last {n} day</source>
        <translation>El último día ({n})</translation>
    </message>
    <message>
        <source>The last {n} days</source>
        <translation>Los últimos {n} días</translation>
    </message>
    <message>
        <source>{span}: nothing saved.</source>
        <translation>{span}: no se guardó nada.</translation>
    </message>
    <message>
        <source>{n} observation saved</source>
        <translation>{n} observación guardada</translation>
    </message>
    <message>
        <source>{n} observations saved</source>
        <translation>{n} observaciones guardadas</translation>
    </message>
    <message>
        <source>{span}: {saved}; the most on {day} ({most}).</source>
        <translation>{span}: {saved}; el día con más, {day} ({most}).</translation>
    </message>
    <message>
        <source>Left and Right choose a day; Enter shows what was saved that day.</source>
        <translation>Izquierda y Derecha eligen un día; Intro muestra lo que se guardó ese día.</translation>
    </message>
    <message>
        <source>Nothing saved in these days</source>
        <translation>No se guardó nada en estos días</translation>
    </message>
    <message>
        <source>No days to show</source>
        <translation>No hay días que mostrar</translation>
    </message>
</context>
<context>
    <name>OverviewPage</name>
    <message>
        <source>Saved per day</source>
        <translation>Guardadas por día</translation>
    </message>
    <message>
        <source>Every observation saved on each of the last {days} days, forgotten ones too. Click a day, or press Enter on it, to see its observations.</source>
        <translation>Cada observación guardada en cada uno de los últimos {days} días, también las olvidadas. Haz clic en un día, o pulsa Intro sobre él, para ver sus observaciones.</translation>
    </message>
    <message>
        <source>Most revised topics</source>
        <translation>Temas más revisados</translation>
    </message>
    <message>
        <source>No topic has been revised yet.</source>
        <translation>Aún no se ha revisado ningún tema.</translation>
    </message>
    <message>
        <source>Largest observations</source>
        <translation>Observaciones más grandes</translation>
    </message>
    <message>
        <source>No live observations.</source>
        <translation>No hay observaciones activas.</translation>
    </message>
    <message>
        <source>Persona folders</source>
        <translation>Carpetas de memoria de la persona</translation>
    </message>
    <message>
        <source>No persona folder is open.</source>
        <translation>No hay ninguna carpeta de memoria de la persona abierta.</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>Activas</translation>
    </message>
    <message>
        <source>Live observations by type</source>
        <translation>Observaciones activas por tipo</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Live observations by project</source>
        <translation>Observaciones activas por proyecto</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Proyecto</translation>
    </message>
    <message>
        <source>Live observations by scope</source>
        <translation>Observaciones activas por ámbito</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Ámbito</translation>
    </message>
    <message>
        <source>By type</source>
        <translation>Por tipo</translation>
    </message>
    <message>
        <source>By project</source>
        <translation>Por proyecto</translation>
    </message>
    <message>
        <source>By scope</source>
        <translation>Por ámbito</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>Tema</translation>
    </message>
    <message>
        <source>Revisions</source>
        <translation>Revisiones</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Título</translation>
    </message>
    <message>
        <source>Enter or a double click shows the observation</source>
        <translation>Intro o un doble clic muestra la observación</translation>
    </message>
    <message>
        <source>Characters</source>
        <translation>Caracteres</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Carpeta</translation>
    </message>
    <message>
        <source>Entries</source>
        <translation>Entradas</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Tamaño</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>Problemas</translation>
    </message>
    <message>
        <source>Open an Alisio database to see what its agent remembers.</source>
        <translation>Abre una base de datos de Alisio para ver lo que recuerda su agente.</translation>
    </message>
    <message>
        <source>Reading the overview…</source>
        <translation>Leyendo la vista general…</translation>
    </message>
    <message>
        <source>{live} · {saved} in the last {days} days</source>
        <translation>{live} · {saved} en los últimos {days} días</translation>
    </message>
    <message>
        <source>{n} live observation</source>
        <translation>{n} observación activa</translation>
    </message>
    <message>
        <source>{n} live observations</source>
        <translation>{n} observaciones activas</translation>
    </message>
    <message>
        <source>{n} saved</source>
        <translation>guardadas: {n}</translation>
    </message>
    <message>
        <source>{n} pinned</source>
        <translation>fijadas: {n}</translation>
    </message>
    <message>
        <source>{n} forgotten</source>
        <translation>olvidadas: {n}</translation>
    </message>
    <message>
        <source>{live} · {pinned} · {forgotten}</source>
        <translation>{live} · {pinned} · {forgotten}</translation>
    </message>
    <message>
        <source>{entries} with a problem; {folder} in the folder itself (see the Persona page)</source>
        <translation>{entries} con algún problema; {folder} en la propia carpeta (véase la página de la persona)</translation>
    </message>
</context>
<context>
    <name>PageList</name>
    <message>
        <source>Pages</source>
        <translation>Páginas</translation>
    </message>
</context>
<context>
    <name>Persona</name>
    <message>
        <source>The name is empty.</source>
        <translation>El nombre está vacío.</translation>
    </message>
    <message>
        <source>Use lowercase letters a-z, digits and single hyphens between them (like “prefers-short-answers”): the agent ignores other file names.</source>
        <translation>Usa letras minúsculas a-z, dígitos y guiones sueltos entre ellos (como “prefers-short-answers”): el agente ignora otros nombres de archivo.</translation>
    </message>
    <message>
        <source>The entry needs a description: the agent&apos;s prompt lists the entry by it, and the agent cannot update an entry without one. Type a line saying what it is about.</source>
        <translation>La entrada necesita una descripción: el prompt del agente la lista por ella, y el agente no puede actualizar una entrada sin descripción. Escribe una línea que diga de qué trata.</translation>
    </message>
    <message>
        <source>it cannot be read.</source>
        <translation>no se puede leer.</translation>
    </message>
    <message>
        <source>To change an entry&apos;s name, rename it; saving keeps the file name.</source>
        <translation>Para cambiar el nombre de una entrada, renómbrala; guardar conserva el nombre del archivo.</translation>
    </message>
    <message>
        <source>The file has no byte-order mark.</source>
        <translation>El archivo no tiene marca de orden de bytes.</translation>
    </message>
    <message>
        <source>The file has no header the agent reads; add one first.</source>
        <translation>El archivo no tiene un encabezado que el agente lea; añade uno primero.</translation>
    </message>
    <message>
        <source>The file already has a header.</source>
        <translation>El archivo ya tiene un encabezado.</translation>
    </message>
    <message>
        <source>The first line is not “---” followed by spaces; nothing to fix.</source>
        <translation>La primera línea no es “---” seguida de espacios; no hay nada que arreglar.</translation>
    </message>
    <message>
        <source>The file has no header the agent reads; nothing to fix.</source>
        <translation>El archivo no tiene un encabezado que el agente lea; no hay nada que arreglar.</translation>
    </message>
    <message>
        <source>The line that ends the header has no text after its dashes.</source>
        <translation>La línea que cierra el encabezado no tiene texto después de sus guiones.</translation>
    </message>
    <message>
        <source>The header has no extra “---” line to remove.</source>
        <translation>El encabezado no tiene ninguna línea “---” de más que quitar.</translation>
    </message>
    <message>
        <source>No header line holds a hidden line break.</source>
        <translation>Ninguna línea del encabezado contiene un salto de línea oculto.</translation>
    </message>
    <message>
        <source>The entry has a description already.</source>
        <translation>La entrada ya tiene una descripción.</translation>
    </message>
    <message>
        <source>The entry&apos;s text has no line to take a description from: type one.</source>
        <translation>El texto de la entrada no tiene ninguna línea de la que tomar una descripción: escribe una.</translation>
    </message>
    <message>
        <source>A header value must be on one line: remove its line breaks (including the invisible line and paragraph separators).</source>
        <translation>Un valor del encabezado debe ir en una sola línea: quita sus saltos de línea (incluidos los separadores invisibles de línea y de párrafo).</translation>
    </message>
    <message>
        <source>“{name}” was written again while Memory Desk moved it; the previous version is kept in “{aside}”.</source>
        <translation>“{name}” se volvió a escribir mientras Memory Desk lo movía; la versión anterior se conserva en “{aside}”.</translation>
    </message>
    <message>
        <source>Could not list “{folder}”: {reason}.</source>
        <translation>No se pudo listar “{folder}”: {reason}.</translation>
    </message>
    <message>
        <source>Could not create “{name}”: {reason}.</source>
        <translation>No se pudo crear “{name}”: {reason}.</translation>
    </message>
    <message>
        <source>Could not save “{name}”: {reason}.</source>
        <translation>No se pudo guardar “{name}”: {reason}.</translation>
    </message>
    <message>
        <source>Could not rename “{name}”: {reason}.</source>
        <translation>No se pudo renombrar “{name}”: {reason}.</translation>
    </message>
    <message>
        <source>Could not move “{name}”: {reason}.</source>
        <translation>No se pudo mover “{name}”: {reason}.</translation>
    </message>
    <message>
        <source>Could not forget “{name}”: {reason}.</source>
        <translation>No se pudo olvidar “{name}”: {reason}.</translation>
    </message>
    <message>
        <source>Could not put “{name}” back: {reason}.</source>
        <translation>No se pudo devolver “{name}” a su sitio: {reason}.</translation>
    </message>
    <message>
        <source>An entry named “{name}” already exists.</source>
        <translation>Ya existe una entrada llamada “{name}”.</translation>
    </message>
    <message>
        <source>There is no entry “{name}” in {folder}.</source>
        <translation>No hay ninguna entrada “{name}” en {folder}.</translation>
    </message>
    <message>
        <source>The type must be one of {types}.</source>
        <translation>El tipo debe ser uno de {types}.</translation>
    </message>
    <message>
        <source>“{name}” cannot be saved: {why}</source>
        <translation>“{name}” no se puede guardar: {why}</translation>
    </message>
    <message>
        <source>“{name}” cannot be fixed here: {why}</source>
        <translation>“{name}” no se puede arreglar aquí: {why}</translation>
    </message>
    <message>
        <source>“{name}” cannot be renamed here: {why}</source>
        <translation>“{name}” no se puede renombrar aquí: {why}</translation>
    </message>
    <message>
        <source>The name is {length} characters long; keep it to {limit}.</source>
        <translation>El nombre tiene {length} caracteres; no pases de {limit}.</translation>
    </message>
    <message>
        <source>“{name}” is a reserved device name on Windows; choose another name.</source>
        <translation>“{name}” es un nombre de dispositivo reservado en Windows; elige otro nombre.</translation>
    </message>
    <message>
        <source>“{folder}” is not a folder (or it does not exist).</source>
        <translation>“{folder}” no es una carpeta (o no existe).</translation>
    </message>
    <message>
        <source>Memory Desk is not allowed to read the folder “{folder}”.</source>
        <translation>Memory Desk no tiene permiso para leer la carpeta “{folder}”.</translation>
    </message>
    <message>
        <source>“{name}” cannot be renamed here: it is a link to “{target}”. Rename that file, or forget the link and create the entry anew.</source>
        <translation>“{name}” no se puede renombrar aquí: es un enlace a “{target}”. Renombra ese archivo, u olvida el enlace y crea la entrada de nuevo.</translation>
    </message>
    <message>
        <source>The description holds a broken character (U+{code}, half of a surrogate pair) at position {position}, which cannot be stored as text. Remove it and save again.</source>
        <translation>La descripción contiene un carácter roto (U+{code}, la mitad de un par sustituto) en la posición {position}, que no se puede guardar como texto. Quítalo y vuelve a guardar.</translation>
    </message>
    <message>
        <source>The text holds a broken character (U+{code}, half of a surrogate pair) at position {position}, which cannot be stored as text. Remove it and save again.</source>
        <translation>El texto contiene un carácter roto (U+{code}, la mitad de un par sustituto) en la posición {position}, que no se puede guardar como texto. Quítalo y vuelve a guardar.</translation>
    </message>
    <message>
        <source>“{name}” changed since it was renamed, or “{old_name}” exists again; the rename was not undone.</source>
        <translation>“{name}” cambió desde que se renombró, o “{old_name}” vuelve a existir; no se deshizo el cambio de nombre.</translation>
    </message>
    <message>
        <source>“{name}” would not be stored inside {folder}.</source>
        <translation>“{name}” no se guardaría dentro de {folder}.</translation>
    </message>
    <message>
        <source>Memory Desk has no record of renaming “{name}”.</source>
        <translation>Memory Desk no tiene constancia de haber renombrado “{name}”.</translation>
    </message>
    <message>
        <source>“{name}.md” is not an entry file (it is a folder or a device).</source>
        <translation>“{name}.md” no es un archivo de entrada (es una carpeta o un dispositivo).</translation>
    </message>
    <message>
        <source>“{name}” was forgotten from another folder, {folder}.</source>
        <translation>“{name}” se olvidó desde otra carpeta, {folder}.</translation>
    </message>
    <message>
        <source>“{name}” changed since it was checked; nothing was renamed.</source>
        <translation>“{name}” cambió desde que se comprobó; no se renombró nada.</translation>
    </message>
    <message>
        <source>There is no fix for “{name}”.</source>
        <translation>No hay arreglo para “{name}”.</translation>
    </message>
    <message>
        <source>Something named “{name}” is in the folder again; nothing was renamed.</source>
        <translation>Vuelve a haber algo llamado “{name}” en la carpeta; no se renombró nada.</translation>
    </message>
    <message>
        <source>“{name}” is no longer there.</source>
        <translation>“{name}” ya no está ahí.</translation>
    </message>
    <message>
        <source>“{name}” exists; nothing was renamed.</source>
        <translation>“{name}” ya existe; no se renombró nada.</translation>
    </message>
    <message>
        <source>“{name}” changed on disk since it was opened (perhaps the agent saved it). Nothing was written.</source>
        <translation>“{name}” cambió en el disco desde que se abrió (quizá lo guardó el agente). No se escribió nada.</translation>
    </message>
    <message>
        <source>The trash copy of “{name}” is missing.</source>
        <translation>Falta la copia de “{name}” en la papelera.</translation>
    </message>
    <message>
        <source>An entry named “{name}” exists again; rename or forget it first.</source>
        <translation>Vuelve a existir una entrada llamada “{name}”; renómbrala u olvídala primero.</translation>
    </message>
    <message>
        <source>“{name}” was deleted or renamed on disk since it was opened.</source>
        <translation>“{name}” se eliminó o se renombró en el disco desde que se abrió.</translation>
    </message>
    <message>
        <source>“{name}” changed on disk since it was opened. Nothing was changed.</source>
        <translation>“{name}” cambió en el disco desde que se abrió. No se cambió nada.</translation>
    </message>
    <message>
        <source>“{name}” changed on disk while Memory Desk moved it (perhaps the agent saved it). Nothing was changed.</source>
        <translation>“{name}” cambió en el disco mientras Memory Desk lo movía (quizá lo guardó el agente). No se cambió nada.</translation>
    </message>
    <message>
        <source>“{name}” is no longer in {folder}.</source>
        <translation>“{name}” ya no está en {folder}.</translation>
    </message>
    <message>
        <source>“{name}” is on a read-only file system: nothing can be written there, not even by the agent. Nothing was written.</source>
        <translation>«{name}» está en un sistema de archivos de solo lectura: ahí no se puede escribir nada, ni siquiera el agente. No se escribió nada.</translation>
    </message>
    <message>
        <source>“{name}” belongs to another user ({owner}) and you may not write it, so the agent could not update it either. Nothing was written.</source>
        <translation>«{name}» pertenece a otro usuario ({owner}) y no tienes permiso para escribirlo, así que el agente tampoco podría actualizarlo. No se escribió nada.</translation>
    </message>
    <message>
        <source>“{name}” belongs to another user ({owner}): saving would replace it with a file of yours and take it from its owner. Nothing was written.</source>
        <translation>«{name}» pertenece a otro usuario ({owner}): guardarlo lo sustituiría por un archivo tuyo y se lo quitaría a su dueño. No se escribió nada.</translation>
    </message>
    <message>
        <source>“{name}” is read-only: its permissions do not let you write it, so the agent could not update it either. Nothing was written. If it should be editable, make the file writable yourself, then save again.</source>
        <translation>«{name}» es de solo lectura: sus permisos no te dejan escribirlo, así que el agente tampoco podría actualizarlo. No se escribió nada. Si debe poder editarse, haz tú mismo que el archivo se pueda escribir y vuelve a guardar.</translation>
    </message>
    <message>
        <source>“{name}” is not the name of an entry file.</source>
        <translation>“{name}” no es el nombre de un archivo de entrada.</translation>
    </message>
    <message>
        <source>Unknown fix “{fix_id}”.</source>
        <translation>Arreglo desconocido “{fix_id}”.</translation>
    </message>
</context>
<context>
    <name>PersonaCommands</name>
    <message>
        <source>Forget {name}</source>
        <translation>Olvidar {name}</translation>
    </message>
    <message>
        <source>Rename {old} to {new}</source>
        <translation>Renombrar {old} a {new}</translation>
    </message>
    <message>
        <source>Fix {name}</source>
        <translation>Arreglar {name}</translation>
    </message>
</context>
<context>
    <name>PersonaConflict</name>
    <message>
        <source>Show what differs (Alt+C)</source>
        <translation>Muestra qué cambia (Alt+C)</translation>
    </message>
    <message>
        <source>Keep your version: saving writes it over the file on disk (Alt+M)</source>
        <translation>Conserva tu versión: al guardar, se escribe sobre el archivo del disco (Alt+M)</translation>
    </message>
    <message>
        <source>Drop your edits and read the file on disk (Alt+L)</source>
        <translation>Descarta tus cambios y lee el archivo del disco (Alt+L)</translation>
    </message>
    <message>
        <source>Keep the entry open: saving writes it back to the folder (Alt+K)</source>
        <translation>Mantiene la entrada abierta: al guardar, vuelve a escribirse en la carpeta (Alt+C)</translation>
    </message>
    <message>
        <source>Close the entry; it stays deleted (Alt+L)</source>
        <translation>Cierra la entrada; sigue eliminada (Alt+R)</translation>
    </message>
    <message>
        <source>{name} (on disk)</source>
        <translation>{name} (en disco)</translation>
    </message>
    <message>
        <source>{name} (yours)</source>
        <translation>{name} (la tuya)</translation>
    </message>
    <message>
        <source>No differences: the file on disk says the same as your version.</source>
        <translation>Sin diferencias: el archivo del disco dice lo mismo que tu versión.</translation>
    </message>
    <message>
        <source>Compare: on disk vs yours</source>
        <translation>Comparar: en disco frente a la tuya</translation>
    </message>
</context>
<context>
    <name>PersonaFixes</name>
    <message>
        <source>Rename to a name the agent reads</source>
        <translation>Renombrar con un nombre que el agente lea</translation>
    </message>
    <message>
        <source>Remove the byte-order mark (the agent then reads the header)</source>
        <translation>Quitar la marca de orden de bytes (el agente lee entonces el encabezado)</translation>
    </message>
    <message>
        <source>Add a header (the agent then reads the first line as the description)</source>
        <translation>Añadir un encabezado (el agente lee entonces la primera línea como descripción)</translation>
    </message>
    <message>
        <source>Set name: to the file name</source>
        <translation>Poner en name: el nombre del archivo</translation>
    </message>
    <message>
        <source>Fill the description from the text&apos;s first line</source>
        <translation>Rellenar la descripción con la primera línea del texto</translation>
    </message>
    <message>
        <source>Write the type the agent reads</source>
        <translation>Escribir el tipo que lee el agente</translation>
    </message>
    <message>
        <source>Set updated to now</source>
        <translation>Poner updated a ahora</translation>
    </message>
    <message>
        <source>Make the first line exactly “---” (the agent then reads the header)</source>
        <translation>Dejar la primera línea exactamente en “---” (el agente lee entonces el encabezado)</translation>
    </message>
    <message>
        <source>Start the text on its own line (the agent reads the same)</source>
        <translation>Empezar el texto en su propia línea (el agente lee lo mismo)</translation>
    </message>
    <message>
        <source>Remove the extra “---” line (the agent reads the same)</source>
        <translation>Quitar la línea “---” de más (el agente lee lo mismo)</translation>
    </message>
    <message>
        <source>Make the hidden line breaks spaces (the agent then reads those lines)</source>
        <translation>Convertir los saltos de línea ocultos en espacios (el agente lee entonces esas líneas)</translation>
    </message>
</context>
<context>
    <name>PersonaFolderProblems</name>
    <message>
        <source>a socket</source>
        <translation>un socket</translation>
    </message>
    <message>
        <source>a device</source>
        <translation>un dispositivo</translation>
    </message>
    <message>
        <source>never ends (it waits on a pipe for ever)</source>
        <translation>no termina nunca (espera en una tubería para siempre)</translation>
    </message>
    <message>
        <source>fails, and one failed read fails them all (its memory_list tool fails the same way)</source>
        <translation>falla, y una lectura fallida las hace fallar todas (su herramienta memory_list falla igual)</translation>
    </message>
    <message>
        <source>“{file}” is a link that leads round in a circle of links: the agent cannot read its memory at all while this is here. Renaming it to “{aside}” fixes that.</source>
        <translation>“{file}” es un enlace que lleva a un círculo de enlaces: el agente no puede leer su memoria en absoluto mientras esto esté aquí. Renombrarlo a “{aside}” lo arregla.</translation>
    </message>
    <message>
        <source>The agent cannot read “{file}” ({reason}): the agent cannot read its memory at all while this is here. Renaming it to “{aside}” fixes that (or give it read permission to keep it as an entry).</source>
        <translation>El agente no puede leer “{file}” ({reason}): el agente no puede leer su memoria en absoluto mientras esto esté aquí. Renombrarlo a “{aside}” lo arregla (o dale permiso de lectura para conservarlo como entrada).</translation>
    </message>
    <message>
        <source>The agent is not allowed to read “{file}”: the agent cannot read its memory at all while this is here. Renaming it to “{aside}” fixes that (or give it read permission to keep it as an entry).</source>
        <translation>El agente no tiene permiso para leer “{file}”: el agente no puede leer su memoria en absoluto mientras esto esté aquí. Renombrarlo a “{aside}” lo arregla (o dale permiso de lectura para conservarlo como entrada).</translation>
    </message>
    <message>
        <source>“{file}” is a link to a folder ({target}): the agent cannot read its memory at all while this is here. Renaming it to “{aside}” fixes that; the folder it points to stays as it is.</source>
        <translation>“{file}” es un enlace a una carpeta ({target}): el agente no puede leer su memoria en absoluto mientras esto esté aquí. Renombrarlo a “{aside}” lo arregla; la carpeta a la que apunta queda como está.</translation>
    </message>
    <message>
        <source>“{file}” is a folder, which the agent takes for an entry by its name: the agent cannot read its memory at all while this is here. Renaming it to “{aside}” fixes that and leaves everything inside it as it is.</source>
        <translation>“{file}” es una carpeta, que el agente toma por una entrada por su nombre: el agente no puede leer su memoria en absoluto mientras esto esté aquí. Renombrarla a “{aside}” lo arregla y deja todo lo que contiene como está.</translation>
    </message>
    <message>
        <source>“{file}” is a pipe (FIFO), not a file: reading it, the agent waits for ever and never gets its memory. Renaming it to “{aside}” fixes that.</source>
        <translation>“{file}” es una tubería (FIFO), no un archivo: al leerla, el agente espera para siempre y nunca recibe su memoria. Renombrarla a “{aside}” lo arregla.</translation>
    </message>
    <message>
        <source>“{file}” is {kind}, not a file: the agent cannot read its memory at all while this is here. Renaming it to “{aside}” fixes that.</source>
        <translation>“{file}” es {kind}, no un archivo: el agente no puede leer su memoria en absoluto mientras esto esté aquí. Renombrarlo a “{aside}” lo arregla.</translation>
    </message>
    <message>
        <source>The agent gets no memory section at the moment.

It reads every entry of its folder at once, and here that read {how}. What stops it:
{problems}

Fix it with the button above the list; the section then shows here again.</source>
        <translation>Ahora mismo el agente no recibe ninguna sección de memoria.

Lee todas las entradas de su carpeta a la vez, y aquí esa lectura {how}. Lo que lo impide:
{problems}

Arréglalo con el botón de encima de la lista; la sección volverá a aparecer aquí.</translation>
    </message>
    <message>
        <source>- {problem}</source>
        <translation>- {problem}</translation>
    </message>
    <message>
        <source>Rename it to “{aside}”</source>
        <translation>Renombrarlo a “{aside}”</translation>
    </message>
</context>
<context>
    <name>PersonaListModel</name>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descripción</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Actualizada</translation>
    </message>
    <message>
        <source>The agent&apos;s prompt lists only the entries above</source>
        <translation>El prompt del agente solo lista las entradas de arriba</translation>
    </message>
    <message>
        <source>The agent never sees the entries below</source>
        <translation>El agente nunca ve las entradas de abajo</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nunca</translation>
    </message>
    <message>
        <source>Unsaved edits: Save writes them.</source>
        <translation>Cambios sin guardar: Guardar los escribe.</translation>
    </message>
    <message>
        <source>The agent changed this entry since you last looked: see View ▸ Since you last looked.</source>
        <translation>El agente cambió esta entrada desde la última vez que miraste: ver Ver ▸ Desde la última vez que miraste.</translation>
    </message>
    <message>
        <source>{severity}: {problem}</source>
        <translation>{severity}: {problem}</translation>
    </message>
    <message>
        <source>The file says “{written}”; the agent reads “{read}”.</source>
        <translation>El archivo dice «{written}»; el agente lee «{read}».</translation>
    </message>
    <message>
        <source>updated: “{value}” is not a date the agent can sort by.</source>
        <translation>updated: «{value}» no es una fecha por la que el agente pueda ordenar.</translation>
    </message>
    <message>
        <source>Unsaved edits.</source>
        <translation>Cambios sin guardar.</translation>
    </message>
    <message>
        <source>Changed by the agent, not reviewed.</source>
        <translation>Cambiada por el agente, sin revisar.</translation>
    </message>
    <message>
        <source>{n} problem.</source>
        <translation>{n} problema.</translation>
    </message>
    <message>
        <source>{n} problems.</source>
        <translation>{n} problemas.</translation>
    </message>
</context>
<context>
    <name>PersonaPage</name>
    <message>
        <source>Filter entries (Ctrl+F)</source>
        <translation>Filtrar entradas (Ctrl+F)</translation>
    </message>
    <message>
        <source>Show only entries whose name, type, description or body match</source>
        <translation>Muestra solo las entradas cuyo nombre, tipo, descripción o cuerpo coincidan</translation>
    </message>
    <message>
        <source>Filter entries</source>
        <translation>Filtrar entradas</translation>
    </message>
    <message>
        <source>&amp;Preview</source>
        <translation>&amp;Vista previa</translation>
    </message>
    <message>
        <source>What the &amp;agent sees</source>
        <translation>Lo que ve el &amp;agente</translation>
    </message>
    <message>
        <source>Preview or agent&apos;s view</source>
        <translation>Vista previa o vista del agente</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Nueva</translation>
    </message>
    <message>
        <source>New entry</source>
        <translation>Nueva entrada</translation>
    </message>
    <message>
        <source>New entry ({keys})</source>
        <translation>Nueva entrada ({keys})</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Guardar</translation>
    </message>
    <message>
        <source>Save the entry</source>
        <translation>Guardar la entrada</translation>
    </message>
    <message>
        <source>Save the entry ({keys})</source>
        <translation>Guarda la entrada ({keys})</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Descartar cambios</translation>
    </message>
    <message>
        <source>Drop unsaved edits</source>
        <translation>Descartar los cambios sin guardar</translation>
    </message>
    <message>
        <source>Drop unsaved edits ({keys})</source>
        <translation>Descarta los cambios sin guardar ({keys})</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>Renombrar…</translation>
    </message>
    <message>
        <source>Rename the entry&apos;s file</source>
        <translation>Renombrar el archivo de la entrada</translation>
    </message>
    <message>
        <source>Rename the entry&apos;s file ({keys})</source>
        <translation>Renombra el archivo de la entrada ({keys})</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>Olvidar</translation>
    </message>
    <message>
        <source>Forget the entry; Ctrl+Z undoes it (Delete in the list)</source>
        <translation>Olvida la entrada; Ctrl+Z lo deshace (Supr en la lista)</translation>
    </message>
    <message>
        <source>E&amp;xport folder…</source>
        <translation>E&amp;xportar carpeta…</translation>
    </message>
    <message>
        <source>Save every entry file of the folder, as it is on disk, in a zip</source>
        <translation>Guarda en un zip todos los archivos de entrada de la carpeta, tal como están en el disco</translation>
    </message>
    <message>
        <source>Forget the entry (in the list)</source>
        <translation>Olvidar la entrada (en la lista)</translation>
    </message>
    <message>
        <source>Go to the entry list</source>
        <translation>Ir a la lista de entradas</translation>
    </message>
    <message>
        <source>Reading the folder&apos;s entries… Editing starts once all are read.</source>
        <translation>Leyendo las entradas de la carpeta… Podrás editar cuando estén todas leídas.</translation>
    </message>
    <message>
        <source>Reading {n} entry… The newest are shown; editing starts once all are read.</source>
        <translation>Leyendo {n} entrada… Se muestran las más recientes; podrás editar cuando estén todas leídas.</translation>
    </message>
    <message>
        <source>Reading {n} entries… The newest are shown; editing starts once all are read.</source>
        <translation>Leyendo {n} entradas… Se muestran las más recientes; podrás editar cuando estén todas leídas.</translation>
    </message>
    <message>
        <source>{writer} deleted {name}. Keep it open (Save writes it back) or close it.</source>
        <translation>{writer} eliminó {name}. Mantenla abierta (Guardar la vuelve a escribir) o ciérrala.</translation>
    </message>
    <message>
        <source>{writer} changed {name} on disk. Your edits are still here: compare, keep yours, or reload theirs.</source>
        <translation>{writer} cambió {name} en el disco. Tus cambios siguen aquí: compara, conserva lo tuyo o toma lo suyo.</translation>
    </message>
    <message>
        <source>{writer} changed {name}; reloaded</source>
        <translation>{writer} cambió {name}; se ha vuelto a cargar</translation>
    </message>
    <message>
        <source>{n} entry</source>
        <translation>{n} entrada</translation>
    </message>
    <message>
        <source>{n} entries</source>
        <translation>{n} entradas</translation>
    </message>
    <message>
        <source>none in the prompt (the agent cannot read this folder)</source>
        <translation>ninguna en el prompt (el agente no puede leer esta carpeta)</translation>
    </message>
    <message>
        <source>{n} in the prompt</source>
        <translation>{n} en el prompt</translation>
    </message>
    <message>
        <source>{n} with problems</source>
        <translation>{n} con problemas</translation>
    </message>
    <message>
        <source>{entries} · {listed} · {problems}</source>
        <translation>{entries} · {listed} · {problems}</translation>
    </message>
    <message>
        <source>Reading the whole of {name}…</source>
        <translation>Leyendo {name} entero…</translation>
    </message>
    <message>
        <source>You have unsaved edits to the new entry. Save them?</source>
        <translation>Tienes cambios sin guardar en la nueva entrada. ¿Quieres guardarlos?</translation>
    </message>
    <message>
        <source>You have unsaved edits to {name}. Save them?</source>
        <translation>Tienes cambios sin guardar en {name}. ¿Quieres guardarlos?</translation>
    </message>
    <message>
        <source>Unsaved edits</source>
        <translation>Cambios sin guardar</translation>
    </message>
    <message>
        <source>{problem} Decide what to keep.</source>
        <translation>{problem} Decide qué conservar.</translation>
    </message>
    <message>
        <source>Saved {name}</source>
        <translation>Guardada {name}</translation>
    </message>
    <message>
        <source>Created {name}</source>
        <translation>Creada {name}</translation>
    </message>
    <message>
        <source>Renamed {old} to {new}</source>
        <translation>Renombrada {old} a {new}</translation>
    </message>
    <message>
        <source>Fixed {name}</source>
        <translation>Arreglada {name}</translation>
    </message>
    <message>
        <source>The agent still cannot read its folder: see above the list</source>
        <translation>El agente sigue sin poder leer su carpeta: mira encima de la lista</translation>
    </message>
    <message>
        <source>The agent can read its folder again</source>
        <translation>El agente ya puede volver a leer su carpeta</translation>
    </message>
    <message>
        <source>Forgot {name}. Undo (Ctrl+Z) brings it back.</source>
        <translation>Olvidada {name}. Deshacer (Ctrl+Z) la recupera.</translation>
    </message>
    <message>
        <source>Kept {name}: Save writes it back to the folder</source>
        <translation>Conservada {name}: Guardar la vuelve a escribir en la carpeta</translation>
    </message>
    <message>
        <source>Kept your version of {name}: Save writes it</source>
        <translation>Conservada tu versión de {name}: Guardar la escribe</translation>
    </message>
    <message>
        <source>Reloaded from disk</source>
        <translation>Vuelta a cargar desde el disco</translation>
    </message>
    <message>
        <source>{name} is no longer there</source>
        <translation>{name} ya no está</translation>
    </message>
    <message>
        <source>Closed {name}; it stays deleted</source>
        <translation>Cerrada {name}; sigue eliminada</translation>
    </message>
    <message>
        <source>Links do not open from the preview: {url}</source>
        <translation>Los enlaces no se abren desde la vista previa: {url}</translation>
    </message>
    <message>
        <source>Another program</source>
        <translation>Otro programa</translation>
    </message>
</context>
<context>
    <name>PersonaProblems</name>
    <message>
        <source>The file starts with an invisible byte-order mark, so the agent does not see its header: it reads the entry as type user with no description, and the header as part of the text. Remove the mark to edit the entry.</source>
        <translation>El archivo empieza con una marca de orden de bytes invisible, así que el agente no ve su encabezado: lee la entrada como tipo user sin descripción, y el encabezado como parte del texto. Quita la marca para editar la entrada.</translation>
    </message>
    <message>
        <source>The file starts with two “---” lines, but the agent never ends a header on the line right after the opening one (a header has at least one line), and no later line starts with “---”. So it reads the whole file as text, dashes included, with type user and no description. Write the header lines between the two “---” lines by hand.</source>
        <translation>El archivo empieza con dos líneas “---”, pero el agente nunca cierra un encabezado en la línea justo después de la de apertura (un encabezado tiene al menos una línea), y ninguna línea posterior empieza con “---”. Así que lee todo el archivo como texto, guiones incluidos, con tipo user y sin descripción. Escribe a mano las líneas del encabezado entre las dos líneas “---”.</translation>
    </message>
    <message>
        <source>The header is never closed: no line after it starts with “---”, so the agent reads the whole file as text, with type user and no description. Add the closing line by hand.</source>
        <translation>El encabezado nunca se cierra: ninguna línea posterior empieza con “---”, así que el agente lee todo el archivo como texto, con tipo user y sin descripción. Añade a mano la línea de cierre.</translation>
    </message>
    <message>
        <source>The first line has spaces after its “---”: the agent needs exactly “---” there, so it sees no header and reads the whole file as text, with type user and no description.</source>
        <translation>La primera línea tiene espacios después de su “---”: el agente necesita exactamente “---” ahí, así que no ve ningún encabezado y lee todo el archivo como texto, con tipo user y sin descripción.</translation>
    </message>
    <message>
        <source>The file has no header (it must start with a line “---”), so the agent reads it as type user with no description.</source>
        <translation>El archivo no tiene encabezado (debe empezar con una línea “---”), así que el agente lo lee como tipo user sin descripción.</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>vacío</translation>
    </message>
    <message>
        <source>The entry has no type, so the agent reads it as user.</source>
        <translation>La entrada no tiene tipo, así que el agente la lee como user.</translation>
    </message>
    <message>
        <source>The type is empty, so the agent reads it as user.</source>
        <translation>El tipo está vacío, así que el agente lo lee como user.</translation>
    </message>
    <message>
        <source>The agent cannot update this entry: it needs a description. (The agent&apos;s prompt lists it with nothing after its name, and when the agent tries to change it, it is told there is no such entry.)</source>
        <translation>El agente no puede actualizar esta entrada: necesita una descripción. (El prompt del agente la lista sin nada después de su nombre, y cuando el agente intenta cambiarla, se le dice que no existe esa entrada.)</translation>
    </message>
    <message>
        <source>The agent cannot update this entry: it needs a description. (The agent&apos;s prompt lists it with nothing after its name, and when the agent tries to change it, it is told there is no such entry.) Type one above and save.</source>
        <translation>El agente no puede actualizar esta entrada: necesita una descripción. (El prompt del agente la lista sin nada después de su nombre, y cuando el agente intenta cambiarla, se le dice que no existe esa entrada.) Escribe una arriba y guarda.</translation>
    </message>
    <message>
        <source>The entry has no updated date, so the agent sorts it after every dated entry.</source>
        <translation>La entrada no tiene fecha updated, así que el agente la ordena después de todas las entradas con fecha.</translation>
    </message>
    <message>
        <source>The file is not valid UTF-8 text. It is shown with replacement characters (as the agent reads it) and Memory Desk will not save it.</source>
        <translation>El archivo no es texto UTF-8 válido. Se muestra con caracteres de sustitución (como lo lee el agente) y Memory Desk no lo guardará.</translation>
    </message>
    <message>
        <source>This link leads round in a circle of links: neither the agent nor Memory Desk can read it.</source>
        <translation>Este enlace lleva a un círculo de enlaces: ni el agente ni Memory Desk pueden leerlo.</translation>
    </message>
    <message>
        <source>a lone carriage return</source>
        <translation>un retorno de carro suelto</translation>
    </message>
    <message>
        <source>a LINE SEPARATOR (U+2028)</source>
        <translation>un SEPARADOR DE LÍNEA (U+2028)</translation>
    </message>
    <message>
        <source>a PARAGRAPH SEPARATOR (U+2029)</source>
        <translation>un SEPARADOR DE PÁRRAFO (U+2029)</translation>
    </message>
    <message>
        <source>The agent skips header lines with a hidden line break inside their value (its pattern stops there), so it reads nothing from them. {lines}</source>
        <translation>El agente se salta las líneas del encabezado con un salto de línea oculto dentro de su valor (su patrón se detiene ahí), así que no lee nada de ellas. {lines}</translation>
    </message>
    <message>
        <source>The description is a list; the agent reads it as “{reading}” in its prompt.</source>
        <translation>La descripción es una lista; el agente la lee como “{reading}” en su prompt.</translation>
    </message>
    <message>
        <source>The agent&apos;s prompt lists only the {limit} most recent entries; this one is not among them (the agent still finds it when it lists all its memories).</source>
        <translation>El prompt del agente lista solo las {limit} entradas más recientes; esta no está entre ellas (el agente aún la encuentra cuando lista todas sus memorias).</translation>
    </message>
    <message>
        <source>The agent never sees this entry: its file name “{name}” is not kebab-case (lowercase letters, digits and single hyphens, like “{suggestion}”). Rename it so the agent can read it.</source>
        <translation>El agente nunca ve esta entrada: su nombre de archivo “{name}” no está en kebab-case (letras minúsculas, dígitos y guiones sueltos, como “{suggestion}”). Renómbrala para que el agente pueda leerla.</translation>
    </message>
    <message>
        <source>The “{key}:” line holds {hidden_break} inside its value; the agent reads the {key} as {reading}.</source>
        <translation>La línea “{key}:” contiene {hidden_break} dentro de su valor; el agente lee {key} como {reading}.</translation>
    </message>
    <message>
        <source>The “{key}:” line holds {hidden_break} inside its value.</source>
        <translation>La línea “{key}:” contiene {hidden_break} dentro de su valor.</translation>
    </message>
    <message>
        <source>The type is written as a list; the agent reads it as {reading} (a list reads as its items joined by commas). Writing it as a plain value keeps that reading.</source>
        <translation>El tipo está escrito como lista; el agente lo lee como {reading} (una lista se lee como sus elementos unidos por comas). Escribirlo como un valor simple mantiene esa lectura.</translation>
    </message>
    <message>
        <source>The description “{description}” is read as text, brackets included, not as a list: the agent reads “[…]” as a list only when nothing follows the “]” on its line, and here spaces do.</source>
        <translation>La descripción “{description}” se lee como texto, corchetes incluidos, no como lista: el agente lee “[…]” como lista solo cuando no hay nada después del “]” en su línea, y aquí hay espacios.</translation>
    </message>
    <message>
        <source>The description is “{value}”: the agent does not read YAML, so its prompt shows just “{value}” (any lines below it are ignored). Write it on one line.</source>
        <translation>La descripción es “{value}”: el agente no lee YAML, así que su prompt muestra solo “{value}” (las líneas de debajo se ignoran). Escríbela en una sola línea.</translation>
    </message>
    <message>
        <source>The text is {size} KB. The agent reads it whole each time it recalls this entry, which fills its context; consider shortening it.</source>
        <translation>El texto ocupa {size} KB. El agente lo lee entero cada vez que recuerda esta entrada, lo que llena su contexto; plantéate acortarlo.</translation>
    </message>
    <message>
        <source>The line that ends the header has text after its three dashes: the agent reads “{excerpt}” as the start of the entry&apos;s text.</source>
        <translation>La línea que cierra el encabezado tiene texto después de sus tres guiones: el agente lee “{excerpt}” como el comienzo del texto de la entrada.</translation>
    </message>
    <message>
        <source>The line right after the opening “---” starts with “---” too, but the agent never ends the header there: it reads the header on to line {line}, the next line that starts with “---”.</source>
        <translation>La línea justo después del “---” de apertura también empieza con “---”, pero el agente nunca cierra el encabezado ahí: lee el encabezado hasta la línea {line}, la siguiente que empieza con “---”.</translation>
    </message>
    <message>
        <source>The name: line says “{header_name}”, but an entry&apos;s name is its file name, “{name}”. The agent ignores the name: line.</source>
        <translation>La línea name: dice “{header_name}”, pero el nombre de una entrada es su nombre de archivo, “{name}”. El agente ignora la línea name:.</translation>
    </message>
    <message>
        <source>The header has more than one “{key}:” line; the agent reads only the last.</source>
        <translation>El encabezado tiene más de una línea “{key}:”; el agente lee solo la última.</translation>
    </message>
    <message>
        <source>The agent ignores the header lines {keys} and drops them the next time it saves this entry.</source>
        <translation>El agente ignora las líneas del encabezado {keys} y las descarta la próxima vez que guarde esta entrada.</translation>
    </message>
    <message>
        <source>The type is a list, which the agent reads as “{reading}”: neither user nor feedback, so it reads the type as user.</source>
        <translation>El tipo es una lista, que el agente lee como “{reading}”: ni user ni feedback, así que lee el tipo como user.</translation>
    </message>
    <message>
        <source>The agent does not read the line “{line}” as part of the {key}: a list item needs a space after its dash. It reads the {key} as {reading}.</source>
        <translation>El agente no lee la línea “{line}” como parte de {key}: un elemento de lista necesita un espacio después de su guion. Lee {key} como {reading}.</translation>
    </message>
    <message>
        <source>The updated date is written as a list; the agent reads it as “{reading}”.</source>
        <translation>La fecha updated está escrita como lista; el agente la lee como “{reading}”.</translation>
    </message>
    <message>
        <source>The updated date “{reading}” is not in the agent&apos;s format (like 2026-10-07T13:15:05.678Z), so the entry may sort in the wrong place.</source>
        <translation>La fecha updated “{reading}” no está en el formato del agente (como 2026-10-07T13:15:05.678Z), así que la entrada puede quedar mal ordenada.</translation>
    </message>
    <message>
        <source>The type “{reading}” is text to the agent, not a list (something follows its “]”): neither user nor feedback, so it reads the type as user.</source>
        <translation>El tipo “{reading}” es texto para el agente, no una lista (algo sigue a su “]”): ni user ni feedback, así que lee el tipo como user.</translation>
    </message>
    <message>
        <source>The type “{reading}” is neither user nor feedback, so the agent reads it as user.</source>
        <translation>El tipo “{reading}” no es ni user ni feedback, así que el agente lo lee como user.</translation>
    </message>
    <message>
        <source>Memory Desk cannot read this file ({reason}); neither can the agent.</source>
        <translation>Memory Desk no puede leer este archivo ({reason}); el agente tampoco.</translation>
    </message>
    <message>
        <source>The file is {size} MB, too large for Memory Desk to open.</source>
        <translation>El archivo ocupa {size} MB, demasiado para que Memory Desk lo abra.</translation>
    </message>
    <message>
        <source>Not editable here: this entry&apos;s file lives outside the folder, at “{target}” (“{name}.md” is a link to it). The agent reads it like any other entry, but Memory Desk changes only files inside the folder: edit it there. Forget removes only the link, never that file.</source>
        <translation>No se puede editar aquí: el archivo de esta entrada está fuera de la carpeta, en “{target}” (“{name}.md” es un enlace a él). El agente lo lee como cualquier otra entrada, pero Memory Desk solo cambia archivos dentro de la carpeta: edítalo allí. Olvidar quita solo el enlace, nunca ese archivo.</translation>
    </message>
    <message>
        <source>The file is {size} MB. The agent reads all of it each time it recalls this entry, which fills its context; consider shortening it. Memory Desk shows its first {start} KB, read-only, until you choose to open it whole.</source>
        <translation>El archivo ocupa {size} MB. El agente lo lee entero cada vez que recuerda esta entrada, lo que llena su contexto; plantéate acortarlo. Memory Desk muestra sus primeros {start} KB, en solo lectura, hasta que decidas abrirlo entero.</translation>
    </message>
    <message>
        <source>This is a link to “{target}”, which does not exist: the agent skips it.</source>
        <translation>Esto es un enlace a “{target}”, que no existe: el agente se lo salta.</translation>
    </message>
    <message>
        <source>This link cannot be followed ({reason}).</source>
        <translation>Este enlace no se puede seguir ({reason}).</translation>
    </message>
</context>
<context>
    <name>ProblemsPanel</name>
    <message>
        <source>Error</source>
        <translation>Error</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Aviso</translation>
    </message>
    <message>
        <source>Fix</source>
        <translation>Arreglar</translation>
    </message>
    <message>
        <source>What the agent will get wrong about this entry, and how to fix it</source>
        <translation>Lo que el agente entenderá mal de esta entrada, y cómo arreglarlo</translation>
    </message>
    <message>
        <source>Problems of the entry</source>
        <translation>Problemas de la entrada</translation>
    </message>
    <message>
        <source>{severity}: {problem}</source>
        <translation>{severity}: {problem}</translation>
    </message>
    <message>
        <source>Fix the file on disk (save or discard your edits first)</source>
        <translation>Arregla el archivo en el disco (antes guarda o descarta tus cambios)</translation>
    </message>
</context>
<context>
    <name>PruningCommands</name>
    <message>
        <source>Forget {n} repeated entry</source>
        <translation>Olvidar {n} entrada repetida</translation>
    </message>
    <message>
        <source>Forget {n} repeated entries</source>
        <translation>Olvidar {n} entradas repetidas</translation>
    </message>
    <message>
        <source>Forgot {n} repeated entry (undo brings it back)</source>
        <translation>Se olvidó {n} entrada repetida (deshacer la recupera)</translation>
    </message>
    <message>
        <source>Forgot {n} repeated entries (undo brings them back)</source>
        <translation>Se olvidaron {n} entradas repetidas (deshacer las recupera)</translation>
    </message>
    <message>
        <source>Put back {n} entry</source>
        <translation>Se recuperó {n} entrada</translation>
    </message>
    <message>
        <source>Put back {n} entries</source>
        <translation>Se recuperaron {n} entradas</translation>
    </message>
</context>
<context>
    <name>PruningPage</name>
    <message>
        <source> days</source>
        <translation> días</translation>
    </message>
    <message>
        <source>Never opened and older than</source>
        <translation>Nunca abierta y con más de</translation>
    </message>
    <message>
        <source> characters</source>
        <translation> caracteres</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>Nearly the same text from</source>
        <translation>Texto casi igual desde</translation>
    </message>
    <message>
        <source>How many of two texts&apos; words must be shared to call them nearly the same (lower finds more, and more that differ)</source>
        <translation>Cuántas palabras deben compartir dos textos para considerarlos casi iguales (un valor más bajo encuentra más, y más que difieren)</translation>
    </message>
    <message>
        <source>Content larger than</source>
        <translation>Contenido de más de</translation>
    </message>
    <message>
        <source>&amp;Find</source>
        <translation>&amp;Buscar</translation>
    </message>
    <message>
        <source>Look for candidates again</source>
        <translation>Volver a buscar candidatas</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Stop looking; nothing is proposed</source>
        <translation>Dejar de buscar; no se propone nada</translation>
    </message>
    <message>
        <source>Looking for candidates</source>
        <translation>Buscando candidatas</translation>
    </message>
    <message>
        <source>Check all</source>
        <translation>Marcar todas</translation>
    </message>
    <message>
        <source>Check none</source>
        <translation>Desmarcar todas</translation>
    </message>
    <message>
        <source>&amp;Forget checked</source>
        <translation>&amp;Olvidar las marcadas</translation>
    </message>
    <message>
        <source>Forget every checked row in one step; undo brings them back</source>
        <translation>Olvidar todas las filas marcadas en un paso; deshacer las recupera</translation>
    </message>
    <message>
        <source>Never opened, older than</source>
        <translation>Nunca abiertas, con más de</translation>
    </message>
    <message>
        <source>Larger than</source>
        <translation>Más de</translation>
    </message>
    <message>
        <source>Nearly the same from</source>
        <translation>Casi iguales desde</translation>
    </message>
    <message>
        <source>Looking for candidates…</source>
        <translation>Buscando candidatas…</translation>
    </message>
    <message>
        <source>Search cancelled: nothing is proposed</source>
        <translation>Búsqueda cancelada: no se propone nada</translation>
    </message>
    <message>
        <source>{n} group</source>
        <translation>{n} grupo</translation>
    </message>
    <message>
        <source>{n} groups</source>
        <translation>{n} grupos</translation>
    </message>
    <message>
        <source>{n} entry looked at</source>
        <translation>{n} entrada revisada</translation>
    </message>
    <message>
        <source>{n} entries looked at</source>
        <translation>{n} entradas revisadas</translation>
    </message>
    <message>
        <source>{n} live observation looked at</source>
        <translation>{n} observación vigente revisada</translation>
    </message>
    <message>
        <source>{n} live observations looked at</source>
        <translation>{n} observaciones vigentes revisadas</translation>
    </message>
    <message>
        <source>{groups} of candidates; {looked}</source>
        <translation>{groups} de candidatas; {looked}</translation>
    </message>
    <message>
        <source>Nothing open to prune</source>
        <translation>Nada abierto que depurar</translation>
    </message>
    <message>
        <source>Press Find to look for what could be forgotten.</source>
        <translation>Pulse Buscar para encontrar lo que podría olvidarse.</translation>
    </message>
    <message>
        <source>Open a database or a persona folder to prune it.</source>
        <translation>Abra una base de datos o una carpeta de persona para depurarla.</translation>
    </message>
    <message>
        <source>Nothing to propose: no candidates.</source>
        <translation>Nada que proponer: no hay candidatas.</translation>
    </message>
    <message>
        <source>Nothing checked: check a row, or a group by its own box, to forget it.</source>
        <translation>Nada marcado: marca una fila, o un grupo con su propia casilla, para olvidarlo.</translation>
    </message>
    <message>
        <source>{n} entry checked: forgetting moves it to Memory Desk&apos;s trash; nothing is deleted, and one undo brings it back.</source>
        <translation>{n} entrada marcada: olvidarla la mueve a la papelera de Memory Desk; no se borra nada, y deshacer una vez la recupera.</translation>
    </message>
    <message>
        <source>{n} entries checked: forgetting moves them to Memory Desk&apos;s trash; nothing is deleted, and one undo brings them all back.</source>
        <translation>{n} entradas marcadas: olvidarlas las mueve a la papelera de Memory Desk; no se borra nada, y deshacer una vez las recupera todas.</translation>
    </message>
    <message>
        <source>{n} observation checked: forgetting hides it from the agent; nothing is deleted, and one undo brings it back.</source>
        <translation>{n} observación marcada: olvidarla la oculta al agente; no se borra nada, y deshacer una vez la recupera.</translation>
    </message>
    <message>
        <source>{n} observations checked: forgetting hides them from the agent; nothing is deleted, and one undo brings them all back.</source>
        <translation>{n} observaciones marcadas: olvidarlas las oculta al agente; no se borra nada, y deshacer una vez las recupera todas.</translation>
    </message>
    <message>
        <source>An earlier change is still being written; try again once it is</source>
        <translation>Aún se está escribiendo un cambio anterior; inténtelo de nuevo cuando termine</translation>
    </message>
    <message>
        <source>Edit ▸ Undo</source>
        <translation>Editar ▸ Deshacer</translation>
    </message>
    <message>
        <source>Same content saved more than once</source>
        <translation>El mismo contenido guardado más de una vez</translation>
    </message>
    <message>
        <source>Nearly the same text ({percent}% of the words)</source>
        <translation>Texto casi igual ({percent}% de las palabras)</translation>
    </message>
    <message>
        <source>Topic “{topic}” is live both in a project and as personal</source>
        <translation>El tema «{topic}» está vigente en un proyecto y como personal</translation>
    </message>
    <message>
        <source>Never opened by the agent, unchanged for over {n} day</source>
        <translation>Nunca abiertas por el agente, sin cambios desde hace más de {n} día</translation>
    </message>
    <message>
        <source>Never opened by the agent, unchanged for over {n} days</source>
        <translation>Nunca abiertas por el agente, sin cambios desde hace más de {n} días</translation>
    </message>
    <message>
        <source>Content over {n} characters</source>
        <translation>Contenido de más de {n} caracteres</translation>
    </message>
    <message>
        <source>Content is only {mark}</source>
        <translation>El contenido es solo {mark}</translation>
    </message>
    <message>
        <source>Entries with the same text</source>
        <translation>Entradas con el mismo texto</translation>
    </message>
    <message>
        <source>Entries that say nearly the same ({percent}%)</source>
        <translation>Entradas que dicen casi lo mismo ({percent}%)</translation>
    </message>
    <message>
        <source>Candidates to forget</source>
        <translation>Candidatas para olvidar</translation>
    </message>
    <message>
        <source>Kept</source>
        <translation>Se conserva</translation>
    </message>
    <message>
        <source>Candidate</source>
        <translation>Candidata</translation>
    </message>
    <message>
        <source>&amp;Keep this one</source>
        <translation>&amp;Conservar esta</translation>
    </message>
    <message>
        <source>Keep the candidate shown on the right and check every other row of its group</source>
        <translation>Conserva la candidata de la derecha y marca todas las demás filas de su grupo</translation>
    </message>
    <message>
        <source>Select a candidate of a group with a kept row to see them side by side.</source>
        <translation>Selecciona una candidata de un grupo con una fila conservada para verlas una junto a otra.</translation>
    </message>
    <message>
        <source>Left, the row the group keeps (words only it has struck through); right, the candidate (words only it has underlined).</source>
        <translation>A la izquierda, la fila que el grupo conserva (las palabras que solo tiene ella, tachadas); a la derecha, la candidata (las palabras que solo tiene ella, subrayadas).</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Título</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Texto</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Dónde</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Actualizada</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Nota</translation>
    </message>
    <message>
        <source>Check or uncheck this group&apos;s candidates</source>
        <translation>Marca o desmarca los candidatos de este grupo</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>se conserva</translation>
    </message>
    <message>
        <source>{n} characters</source>
        <translation>{n} caracteres</translation>
    </message>
    <message>
        <source>personal</source>
        <translation>personal</translation>
    </message>
</context>
<context>
    <name>RenameDialog</name>
    <message>
        <source>Rename {name}</source>
        <translation>Renombrar {name}</translation>
    </message>
    <message>
        <source>The name is the file name. The agent only sees lowercase words joined by dashes (like &lt;code&gt;no-fish-puns&lt;/code&gt;).</source>
        <translation>El nombre es el nombre del archivo. El agente solo ve palabras en minúsculas unidas por guiones (como &lt;code&gt;no-fish-puns&lt;/code&gt;).</translation>
    </message>
    <message>
        <source>New name</source>
        <translation>Nombre nuevo</translation>
    </message>
    <message>
        <source>The entry&apos;s new file name: lowercase words joined by dashes</source>
        <translation>El nuevo nombre del archivo de la entrada: palabras en minúsculas unidas por guiones</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>&amp;Renombrar</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>That is the current name.</source>
        <translation>Ese es el nombre actual.</translation>
    </message>
</context>
<context>
    <name>ReviewDiff</name>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descripción</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Body</source>
        <translation>Cuerpo</translation>
    </message>
    <message>
        <source>The whole file</source>
        <translation>El archivo entero</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Título</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>Tema</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>Contenido</translation>
    </message>
    <message>
        <source>Select a change to see what it was and what it is now.</source>
        <translation>Selecciona un cambio para ver qué era y qué es ahora.</translation>
    </message>
    <message>
        <source>New: there is no earlier version, only what the agent wrote.</source>
        <translation>Nuevo: no hay una versión anterior, solo lo que escribió el agente.</translation>
    </message>
    <message>
        <source>The agent deleted it: this is the last version Memory Desk saw. Roll back writes it again.</source>
        <translation>El agente lo borró: esta es la última versión que vio Memory Desk. Revertir la vuelve a escribir.</translation>
    </message>
    <message>
        <source>Memory Desk had not kept the earlier text (the history was off, cleared or pruned): only the new version is shown.</source>
        <translation>Memory Desk no había guardado el texto anterior (el historial estaba desactivado, se borró o se recortó): solo se muestra la versión nueva.</translation>
    </message>
    <message>
        <source>The agent rewrote the file with the same name, description, type and body: only other lines of it changed (such as the date it was updated), marked below.</source>
        <translation>El agente reescribió el archivo con el mismo nombre, descripción, tipo y cuerpo: solo cambiaron otras líneas (como la fecha de actualización), marcadas abajo.</translation>
    </message>
    <message>
        <source>The agent forgot it: it no longer sees it. Roll back brings it back.</source>
        <translation>El agente la olvidó: ya no la ve. Revertir la recupera.</translation>
    </message>
    <message>
        <source>Left, before the agent&apos;s change (removed words struck through); right, after it (added words underlined).</source>
        <translation>A la izquierda, antes del cambio del agente (palabras quitadas tachadas); a la derecha, después (palabras añadidas subrayadas).</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Antes</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Después</translation>
    </message>
</context>
<context>
    <name>ReviewList</name>
    <message>
        <source>When</source>
        <translation>Cuándo</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>Qué pasó</translation>
    </message>
    <message>
        <source>Title or entry</source>
        <translation>Título o entrada</translation>
    </message>
    <message>
        <source>Store</source>
        <translation>Almacén</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>Chat</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>Agente</translation>
    </message>
    <message>
        <source>new entry</source>
        <translation>entrada nueva</translation>
    </message>
    <message>
        <source>new</source>
        <translation>nueva</translation>
    </message>
    <message>
        <source>revised</source>
        <translation>revisada</translation>
    </message>
    <message>
        <source>forgotten</source>
        <translation>olvidada</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>borrada</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>cambiada</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>eliminada</translation>
    </message>
    <message>
        <source>Chat {id}</source>
        <translation>Chat {id}</translation>
    </message>
    <message>
        <source>(reviewed)</source>
        <translation>(revisado)</translation>
    </message>
</context>
<context>
    <name>ReviewPage</name>
    <message>
        <source>History</source>
        <translation>Historial</translation>
    </message>
    <message>
        <source>Keep a history of what the agents change</source>
        <translation>Guardar un historial de lo que cambian los agentes</translation>
    </message>
    <message>
        <source>Off: nothing new is recorded, and changes made meanwhile are not listed</source>
        <translation>Desactivado: no se registra nada nuevo, y los cambios hechos mientras tanto no se listan</translation>
    </message>
    <message>
        <source> days</source>
        <translation> días</translation>
    </message>
    <message>
        <source>Older changes and versions are dropped</source>
        <translation>Los cambios y versiones más antiguos se descartan</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>Beyond this size the oldest versions are dropped first. Not counted: a small row per memory, kept to notice what changes</source>
        <translation>Por encima de este tamaño se descartan primero las versiones más antiguas. No cuenta: una fila pequeña por recuerdo, que sirve para notar lo que cambia</translation>
    </message>
    <message>
        <source>Clear history…</source>
        <translation>Borrar historial…</translation>
    </message>
    <message>
        <source>Forget every recorded change and old version; the next look starts afresh</source>
        <translation>Olvidar todos los cambios y versiones antiguas registrados; la próxima revisión empieza de cero</translation>
    </message>
    <message>
        <source>Keep for</source>
        <translation>Conservar durante</translation>
    </message>
    <message>
        <source>At most</source>
        <translation>Como máximo</translation>
    </message>
    <message>
        <source>Space used</source>
        <translation>Espacio usado</translation>
    </message>
    <message>
        <source>not known yet</source>
        <translation>aún no se sabe</translation>
    </message>
    <message>
        <source>Clear history</source>
        <translation>Borrar historial</translation>
    </message>
    <message>
        <source>Forget every change listed and every old version Memory Desk kept? Rolling back what is listed now will no longer be possible.</source>
        <translation>¿Olvidar todos los cambios listados y todas las versiones antiguas que guardó Memory Desk? Ya no se podrá revertir lo que se lista ahora.</translation>
    </message>
    <message>
        <source>Show &amp;reviewed</source>
        <translation>Mostrar &amp;revisados</translation>
    </message>
    <message>
        <source>List the changes already marked reviewed too</source>
        <translation>Listar también los cambios ya marcados como revisados</translation>
    </message>
    <message>
        <source>Nothing changed since you last looked</source>
        <translation>Nada ha cambiado desde la última vez que miraste</translation>
    </message>
    <message>
        <source>Changes since you last looked</source>
        <translation>Cambios desde la última vez que miraste</translation>
    </message>
    <message>
        <source>One change per row, newest first. Space marks reviewed, Return reads the change, F2 opens it in its page.</source>
        <translation>Un cambio por fila, los más recientes primero. Espacio lo marca como revisado, Intro lee el cambio, F2 lo abre en su página.</translation>
    </message>
    <message>
        <source>Mark reviewed</source>
        <translation>Marcar como revisado</translation>
    </message>
    <message>
        <source>Mark the selected changes reviewed</source>
        <translation>Marcar como revisados los cambios seleccionados</translation>
    </message>
    <message>
        <source>Mark all reviewed</source>
        <translation>Marcar todo como revisado</translation>
    </message>
    <message>
        <source>Mark every listed change reviewed</source>
        <translation>Marcar como revisados todos los cambios listados</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Editar</translation>
    </message>
    <message>
        <source>Open the observation or entry in its own page to edit it</source>
        <translation>Abrir la observación o la entrada en su página para editarla</translation>
    </message>
    <message>
        <source>Pin</source>
        <translation>Fijar</translation>
    </message>
    <message>
        <source>Pin or unpin the selected observations</source>
        <translation>Fijar o soltar las observaciones seleccionadas</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>Olvidar</translation>
    </message>
    <message>
        <source>Forget the selected observations (undo brings them back)</source>
        <translation>Olvidar las observaciones seleccionadas (deshacer las recupera)</translation>
    </message>
    <message>
        <source>Roll back</source>
        <translation>Revertir</translation>
    </message>
    <message>
        <source>Put the previous version back (Ctrl+Z puts the agent&apos;s back)</source>
        <translation>Restaurar la versión anterior (Ctrl+Z vuelve a poner la del agente)</translation>
    </message>
    <message>
        <source>Memory Desk did not keep this observation&apos;s project and chat, so it cannot write it back; its last text is shown on the left to copy.</source>
        <translation>Memory Desk no guardó el proyecto ni el chat de esta observación, así que no puede volver a escribirla; su último texto se muestra a la izquierda para copiarlo.</translation>
    </message>
    <message>
        <source>Up, Down</source>
        <translation>Arriba, Abajo</translation>
    </message>
    <message>
        <source>Go to the previous or next change</source>
        <translation>Ir al cambio anterior o siguiente</translation>
    </message>
    <message>
        <source>Return</source>
        <translation>Intro</translation>
    </message>
    <message>
        <source>Read the change&apos;s versions</source>
        <translation>Leer las versiones del cambio</translation>
    </message>
    <message>
        <source>Go back to the list (from the versions)</source>
        <translation>Volver a la lista (desde las versiones)</translation>
    </message>
    <message>
        <source>{n} change to review</source>
        <translation>{n} cambio por revisar</translation>
    </message>
    <message>
        <source>{n} changes to review</source>
        <translation>{n} cambios por revisar</translation>
    </message>
    <message>
        <source>The history of changes could not be read: {problem} Clear history (below) starts a new one.</source>
        <translation>No se pudo leer el historial de cambios: {problem} Borrar historial (abajo) empieza uno nuevo.</translation>
    </message>
    <message>
        <source>No change is recorded yet</source>
        <translation>Aún no hay ningún cambio registrado</translation>
    </message>
    <message>
        <source>This page lists the changes the agents make to their observations and persona entries since you last looked: you can keep each one (mark it reviewed) or roll it back.</source>
        <translation>Esta página lista los cambios que los agentes hacen en sus observaciones y en las entradas de la persona desde la última vez que miraste: puedes conservar cada uno (marcarlo como revisado) o revertirlo.</translation>
    </message>
    <message>
        <source>Memory Desk has not looked at the stores yet.</source>
        <translation>Memory Desk aún no ha mirado las memorias de los agentes.</translation>
    </message>
    <message>
        <source>Memory Desk last looked at the stores on {when}.</source>
        <translation>Memory Desk miró las memorias de los agentes por última vez el {when}.</translation>
    </message>
    <message>
        <source>The history of changes is not open; Clear history (below) starts a new one.</source>
        <translation>El historial de cambios no está abierto; Borrar historial (abajo) empieza uno nuevo.</translation>
    </message>
    <message>
        <source>Select the changes to mark reviewed</source>
        <translation>Selecciona los cambios que quieres marcar como revisados</translation>
    </message>
    <message>
        <source>Marked {n} change reviewed</source>
        <translation>{n} cambio marcado como revisado</translation>
    </message>
    <message>
        <source>Marked {n} changes reviewed</source>
        <translation>{n} cambios marcados como revisados</translation>
    </message>
    <message>
        <source>Every change is marked reviewed</source>
        <translation>Todos los cambios están marcados como revisados</translation>
    </message>
    <message>
        <source>It was deleted: there is nothing to open. Roll back writes it again.</source>
        <translation>Se borró: no hay nada que abrir. Revertir lo vuelve a escribir.</translation>
    </message>
    <message>
        <source>Select observations that are still there</source>
        <translation>Selecciona observaciones que todavía existan</translation>
    </message>
    <message>
        <source>Observation #{id} is in the database again; nothing was written</source>
        <translation>La observación #{id} vuelve a estar en la base de datos; no se escribió nada</translation>
    </message>
    <message>
        <source>Wrote #{old} back as new observation #{new}; {keys} forgets it again</source>
        <translation>#{old} se escribió de nuevo como la observación #{new}; {keys} la vuelve a olvidar</translation>
    </message>
    <message>
        <source>{store} is not open any more; open it to act on this change.</source>
        <translation>{store} ya no está abierto; ábrelo para actuar sobre este cambio.</translation>
    </message>
    <message>
        <source>These observations are no longer in the database</source>
        <translation>Estas observaciones ya no están en la base de datos</translation>
    </message>
    <message>
        <source>The selected observations are already forgotten</source>
        <translation>Las observaciones seleccionadas ya están olvidadas</translation>
    </message>
    <message>
        <source>An earlier change is still being written; try again in a moment</source>
        <translation>Todavía se está escribiendo un cambio anterior; inténtalo de nuevo en un momento</translation>
    </message>
    <message>
        <source>It is new: there is no earlier version to go back to (Forget removes it).</source>
        <translation>Es nuevo: no hay una versión anterior a la que volver (Olvidar lo quita).</translation>
    </message>
    <message>
        <source>Memory Desk did not keep the earlier version, so it cannot put it back.</source>
        <translation>Memory Desk no guardó la versión anterior, así que no puede restaurarla.</translation>
    </message>
    <message>
        <source>Observation #{id} is no longer in the database</source>
        <translation>La observación #{id} ya no está en la base de datos</translation>
    </message>
    <message>
        <source>Observation #{id} is not forgotten any more</source>
        <translation>La observación #{id} ya no está olvidada</translation>
    </message>
    <message>
        <source>Rolled back {what} to its previous version; {keys} puts the agent&apos;s back</source>
        <translation>{what} ha vuelto a su versión anterior; {keys} vuelve a poner la del agente</translation>
    </message>
    <message>
        <source>{name} was changed again since this change: review the newer change, or edit it by hand.</source>
        <translation>{name} se volvió a cambiar después de este cambio: revisa el cambio más reciente o edítalo a mano.</translation>
    </message>
    <message>
        <source>Roll back {name}</source>
        <translation>Revertir {name}</translation>
    </message>
    <message>
        <source>{name} changed on disk since the rollback; nothing was written.</source>
        <translation>{name} cambió en el disco después de revertirlo; no se escribió nada.</translation>
    </message>
</context>
<context>
    <name>SafePreview</name>
    <message>
        <source>Preview</source>
        <translation>Vista previa</translation>
    </message>
    <message>
        <source>The entry&apos;s markdown as it reads when rendered</source>
        <translation>El markdown de la entrada tal como se lee una vez presentado</translation>
    </message>
    <message>
        <source>*The preview shows only the first {kb} KB of the text.*</source>
        <translation>*La vista previa muestra solo los primeros {kb} KB del texto.*</translation>
    </message>
</context>
<context>
    <name>SavedSearches</name>
    <message>
        <source>Saved searches</source>
        <translation>Búsquedas guardadas</translation>
    </message>
    <message>
        <source>Saved searches: keep this search and its filters under a name ({keys})</source>
        <translation>Búsquedas guardadas: guardar esta búsqueda y sus filtros con un nombre ({keys})</translation>
    </message>
    <message>
        <source>Save this search</source>
        <translation>Guardar esta búsqueda</translation>
    </message>
    <message>
        <source>Name (a saved search of that name is replaced):</source>
        <translation>Nombre (una búsqueda guardada con ese nombre se reemplaza):</translation>
    </message>
    <message>
        <source>Save this search…</source>
        <translation>Guardar esta búsqueda…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Quitar</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Everywhere</source>
        <translation>En todas partes</translation>
    </message>
    <message>
        <source>Observations</source>
        <translation>Observaciones</translation>
    </message>
    <message>
        <source>Memory of the person</source>
        <translation>Memoria de la persona</translation>
    </message>
    <message>
        <source>Chats</source>
        <translation>Chats</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>Vista general</translation>
    </message>
    <message>
        <source>Pruning assistant</source>
        <translation>Asistente de poda</translation>
    </message>
    <message>
        <source>Since you last looked</source>
        <translation>Desde la última vez que miraste</translation>
    </message>
    <message>
        <source>(undescribed)</source>
        <translation>(sin descripción)</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Atajos de teclado</translation>
    </message>
    <message>
        <source>Find a key or an action</source>
        <translation>Busca una tecla o una acción</translation>
    </message>
    <message>
        <source>Each key and what it does, grouped by where it works</source>
        <translation>Cada tecla y lo que hace, agrupadas por dónde funcionan</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Teclas</translation>
    </message>
    <message>
        <source>Does</source>
        <translation>Hace</translation>
    </message>
</context>
<context>
    <name>SourceRegistry</name>
    <message>
        <source>{name} is open, but: {warnings}.</source>
        <translation>{name} está abierto, pero: {warnings}.</translation>
    </message>
    <message>
        <source>{what}: showing it</source>
        <translation>{what}: se muestra</translation>
    </message>
    <message>
        <source>{what}. Memory Desk now shows the file that is there now; nothing you do from now on goes to the old one.</source>
        <translation>{what}. Memory Desk muestra ahora el archivo que hay ahí; nada de lo que hagas a partir de ahora va al antiguo.</translation>
    </message>
    <message>
        <source>{what}. The file there now cannot be opened: {problem}</source>
        <translation>{what}. El archivo que hay ahora no se puede abrir: {problem}</translation>
    </message>
    <message>
        <source>{what}. Nothing is shown for {source} until a database is at that path again; if it was moved, open it from its new place (File ▸ Open database).</source>
        <translation>{what}. No se muestra nada de {source} hasta que vuelva a haber una base de datos en esa ruta; si se movió, ábrela desde su nuevo sitio (Archivo ▸ Abrir base de datos).</translation>
    </message>
    <message>
        <source>A database appeared at {path}</source>
        <translation>Apareció una base de datos en {path}</translation>
    </message>
    <message>
        <source>{path} is no longer there: it was deleted, or moved elsewhere</source>
        <translation>{path} ya no está: se eliminó o se movió a otro sitio</translation>
    </message>
    <message>
        <source>{path} was replaced by another file (another program moved or copied one over it)</source>
        <translation>{path} fue reemplazada por otro archivo (otro programa movió o copió uno encima)</translation>
    </message>
</context>
<context>
    <name>SourceSidebar</name>
    <message>
        <source>Alisio observations</source>
        <translation>Observaciones de Alisio</translation>
    </message>
    <message>
        <source>Memory of the person</source>
        <translation>Memoria de la persona</translation>
    </message>
    <message>
        <source>Technical details</source>
        <translation>Detalles técnicos</translation>
    </message>
    <message>
        <source>Memory sources</source>
        <translation>Fuentes de memoria</translation>
    </message>
    <message>
        <source>Alisio databases and agents&apos; memory folders, with how much each holds; pick one to show it.</source>
        <translation>Bases de datos de Alisio y carpetas de memoria de los agentes, con cuánto guarda cada una; elige una para mostrarla.</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Detalles</translation>
    </message>
    <message>
        <source>Show or hide the path, size and settings of this source</source>
        <translation>Muestra u oculta la ruta, el tamaño y los ajustes de esta fuente</translation>
    </message>
    <message>
        <source>Shows the technical lines: the file or folder path, its size, the schema and Alisio&apos;s memory settings.</source>
        <translation>Muestra los datos técnicos: la ruta del archivo o la carpeta, su tamaño, el esquema y los ajustes de memoria de Alisio.</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>no está</translation>
    </message>
    <message>
        <source>{path} is no longer there</source>
        <translation>{path} ya no está</translation>
    </message>
    <message>
        <source>Counting…</source>
        <translation>Contando…</translation>
    </message>
    <message>
        <source>{n} change to review (View ▸ Since you last looked)</source>
        <translation>{n} cambio por revisar (Ver ▸ Desde la última vez que miraste)</translation>
    </message>
    <message>
        <source>{n} changes to review (View ▸ Since you last looked)</source>
        <translation>{n} cambios por revisar (Ver ▸ Desde la última vez que miraste)</translation>
    </message>
    <message>
        <source>{live} live · {forgotten} forgotten · {pinned} pinned</source>
        <translation>activas: {live} · olvidadas: {forgotten} · fijadas: {pinned}</translation>
    </message>
    <message>
        <source>{n} entry · {problems} with problems</source>
        <translation>{n} entrada · {problems} con problemas</translation>
    </message>
    <message>
        <source>{n} entries · {problems} with problems</source>
        <translation>{n} entradas · {problems} con problemas</translation>
    </message>
    <message>
        <source>Demo data in a temporary folder</source>
        <translation>Datos de demostración en una carpeta temporal</translation>
    </message>
    <message>
        <source>The memory plugin is disabled in Alisio&apos;s config</source>
        <translation>El plugin de memoria está desactivado en la configuración de Alisio</translation>
    </message>
    <message>
        <source>Path: {path}</source>
        <translation>Ruta: {path}</translation>
    </message>
    <message>
        <source>Size: {size}</source>
        <translation>Tamaño: {size}</translation>
    </message>
    <message>
        <source>Schema {versions}</source>
        <translation>Esquema {versions}</translation>
    </message>
    <message>
        <source>Config: {path}</source>
        <translation>Configuración: {path}</translation>
    </message>
    <message>
        <source>{key}: {value}</source>
        <translation>{key}: {value}</translation>
    </message>
    <message>
        <source>{key}: {value} (default)</source>
        <translation>{key}: {value} (predeterminado)</translation>
    </message>
</context>
<context>
    <name>StoredPreviewPanel</name>
    <message>
        <source>{length} / {cap}</source>
        <translation>{length} / {cap}</translation>
    </message>
    <message>
        <source>Content: longer than the plugin&apos;s {cap} characters, like the stored row; Memory Desk keeps it whole.</source>
        <translation>Contenido: más largo que los {cap} caracteres del plugin, como la fila guardada; Memory Desk lo conserva entero.</translation>
    </message>
    <message>
        <source>Title: &lt;private&gt;…&lt;/private&gt; will be stored as [REDACTED].</source>
        <translation>Título: &lt;private&gt;…&lt;/private&gt; se guardará como [REDACTED].</translation>
    </message>
    <message>
        <source>Content: &lt;private&gt;…&lt;/private&gt; will be stored as [REDACTED].</source>
        <translation>Contenido: &lt;private&gt;…&lt;/private&gt; se guardará como [REDACTED].</translation>
    </message>
    <message>
        <source>Title: blank space at its start and end will be dropped.</source>
        <translation>Título: se quitarán los espacios en blanco del principio y del final.</translation>
    </message>
    <message>
        <source>Content: blank space at its start and end will be dropped.</source>
        <translation>Contenido: se quitarán los espacios en blanco del principio y del final.</translation>
    </message>
    <message>
        <source>Content: its stored fingerprint (normalized_hash) is not the one Memory Desk computes for it; the agent may know letters newer than Memory Desk&apos;s Unicode tables. It is kept as stored while the content stays as it is, and computed afresh if you change the content.</source>
        <translation>Contenido: su huella guardada (normalized_hash) no es la que Memory Desk calcula para él; el agente puede conocer letras más nuevas que las tablas Unicode de Memory Desk. Se conserva tal como está guardada mientras el contenido no cambie, y se calcula de nuevo si cambia el contenido.</translation>
    </message>
    <message>
        <source>Title: will be cut to {cap} characters, ending with “{suffix}” (it has {typed}).</source>
        <translation>Título: se cortará a {cap} caracteres, terminando en «{suffix}» (tiene {typed}).</translation>
    </message>
    <message>
        <source>Content: will be cut to {cap} characters, ending with “{suffix}” (it has {typed}).</source>
        <translation>Contenido: se cortará a {cap} caracteres, terminando en «{suffix}» (tiene {typed}).</translation>
    </message>
    <message>
        <source>Title length</source>
        <translation>Longitud del título</translation>
    </message>
    <message>
        <source>Title length as the plugin counts it</source>
        <translation>Longitud del título tal como la cuenta el plugin</translation>
    </message>
    <message>
        <source>Content length</source>
        <translation>Longitud del contenido</translation>
    </message>
    <message>
        <source>Content length as the plugin counts it (an emoji counts 2)</source>
        <translation>Longitud del contenido tal como la cuenta el plugin (un emoji cuenta 2)</translation>
    </message>
    <message>
        <source>What the plugin will store differently</source>
        <translation>Lo que el plugin guardará de otra forma</translation>
    </message>
</context>
<context>
    <name>TableColumns</name>
    <message>
        <source>Pinned</source>
        <translation>Fijada</translation>
    </message>
</context>
<context>
    <name>TopicConflictDialog</name>
    <message>
        <source>Restoring {rows} would leave more than one live observation on the same topic key:</source>
        <translation>Restaurar {rows} dejaría más de una observación viva con la misma clave de tema:</translation>
    </message>
    <message>
        <source>Restore without the topic key</source>
        <translation>Restaurar sin la clave de tema</translation>
    </message>
    <message>
        <source>&lt;b&gt;Restore without the topic key&lt;/b&gt;: {named} comes back without a topic key; the agent&apos;s next save on the topic keeps rewriting {rows}.</source>
        <translation>&lt;b&gt;Restaurar sin la clave de tema&lt;/b&gt;: {named} vuelve sin clave de tema; el próximo guardado del agente en el tema sigue reescribiendo {rows}.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Restore without the topic key&lt;/b&gt;: {named} come back without a topic key; the agent&apos;s next save on the topics keeps rewriting {rows}.</source>
        <translation>&lt;b&gt;Restaurar sin la clave de tema&lt;/b&gt;: {named} vuelven sin clave de tema; el próximo guardado del agente en los temas sigue reescribiendo {rows}.</translation>
    </message>
    <message>
        <source>Nothing was restored (you cancelled)</source>
        <translation>No se restauró nada (cancelaste)</translation>
    </message>
    <message>
        <source>Undoing the forget of {rows} would leave more than one live observation on the same topic key:</source>
        <translation>Deshacer el olvido de {rows} dejaría más de una observación viva con la misma clave de tema:</translation>
    </message>
    <message>
        <source>Bring back without the topic key</source>
        <translation>Recuperar sin la clave de tema</translation>
    </message>
    <message>
        <source>&lt;b&gt;Bring back without the topic key&lt;/b&gt;: {named} comes back without a topic key; the agent&apos;s next save on the topic keeps rewriting {rows}.</source>
        <translation>&lt;b&gt;Recuperar sin la clave de tema&lt;/b&gt;: {named} vuelve sin clave de tema; el próximo guardado del agente en el tema sigue reescribiendo {rows}.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Bring back without the topic key&lt;/b&gt;: {named} come back without a topic key; the agent&apos;s next save on the topics keeps rewriting {rows}.</source>
        <translation>&lt;b&gt;Recuperar sin la clave de tema&lt;/b&gt;: {named} vuelven sin clave de tema; el próximo guardado del agente en los temas sigue reescribiendo {rows}.</translation>
    </message>
    <message>
        <source>Nothing was brought back; Ctrl+Z still offers to undo the forget</source>
        <translation>No se recuperó nada; Ctrl+Z sigue ofreciendo deshacer el olvido</translation>
    </message>
    <message>
        <source>Putting back {rows} would leave more than one live observation on the same topic key:</source>
        <translation>Devolver {rows} dejaría más de una observación viva con la misma clave de tema:</translation>
    </message>
    <message>
        <source>Put back without the topic key</source>
        <translation>Devolver sin la clave de tema</translation>
    </message>
    <message>
        <source>&lt;b&gt;Put back without the topic key&lt;/b&gt;: {named} comes back without a topic key; the agent&apos;s next save on the topic keeps rewriting {rows}.</source>
        <translation>&lt;b&gt;Devolver sin la clave de tema&lt;/b&gt;: {named} vuelve sin clave de tema; el próximo guardado del agente en el tema sigue reescribiendo {rows}.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Put back without the topic key&lt;/b&gt;: {named} come back without a topic key; the agent&apos;s next save on the topics keeps rewriting {rows}.</source>
        <translation>&lt;b&gt;Devolver sin la clave de tema&lt;/b&gt;: {named} vuelven sin clave de tema; el próximo guardado del agente en los temas sigue reescribiendo {rows}.</translation>
    </message>
    <message>
        <source>Nothing was put back</source>
        <translation>No se devolvió nada</translation>
    </message>
    <message>
        <source>Saving {rows} would leave more than one live observation on the same topic key:</source>
        <translation>Guardar {rows} dejaría más de una observación viva con la misma clave de tema:</translation>
    </message>
    <message>
        <source>Save without the topic key</source>
        <translation>Guardar sin la clave de tema</translation>
    </message>
    <message>
        <source>&lt;b&gt;Save without the topic key&lt;/b&gt;: {named} is saved without a topic key; the agent&apos;s next save on the topic keeps rewriting {rows}.</source>
        <translation>&lt;b&gt;Guardar sin la clave de tema&lt;/b&gt;: {named} se guarda sin clave de tema; el próximo guardado del agente en el tema sigue reescribiendo {rows}.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Save without the topic key&lt;/b&gt;: {named} are saved without a topic key; the agent&apos;s next save on the topics keeps rewriting {rows}.</source>
        <translation>&lt;b&gt;Guardar sin la clave de tema&lt;/b&gt;: {named} se guardan sin clave de tema; el próximo guardado del agente en los temas sigue reescribiendo {rows}.</translation>
    </message>
    <message>
        <source>Nothing was saved (you cancelled); your text is still in the form</source>
        <translation>No se guardó nada (cancelaste); tu texto sigue en el formulario</translation>
    </message>
    <message>
        <source>Restoring and saving {rows} would leave more than one live observation on the same topic key:</source>
        <translation>Restaurar y guardar {rows} dejaría más de una observación viva con la misma clave de tema:</translation>
    </message>
    <message>
        <source>Restore and save without the topic key</source>
        <translation>Restaurar y guardar sin la clave de tema</translation>
    </message>
    <message>
        <source>&lt;b&gt;Restore and save without the topic key&lt;/b&gt;: {named} comes back without a topic key; the agent&apos;s next save on the topic keeps rewriting {rows}.</source>
        <translation>&lt;b&gt;Restaurar y guardar sin la clave de tema&lt;/b&gt;: {named} vuelve sin clave de tema; el próximo guardado del agente en el tema sigue reescribiendo {rows}.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Restore and save without the topic key&lt;/b&gt;: {named} come back without a topic key; the agent&apos;s next save on the topics keeps rewriting {rows}.</source>
        <translation>&lt;b&gt;Restaurar y guardar sin la clave de tema&lt;/b&gt;: {named} vuelven sin clave de tema; el próximo guardado del agente en los temas sigue reescribiendo {rows}.</translation>
    </message>
    <message>
        <source>Undoing the edit of {rows} would leave more than one live observation on the same topic key:</source>
        <translation>Deshacer el cambio de {rows} dejaría más de una observación viva con la misma clave de tema:</translation>
    </message>
    <message>
        <source>Undo without the topic key</source>
        <translation>Deshacer sin la clave de tema</translation>
    </message>
    <message>
        <source>&lt;b&gt;Undo without the topic key&lt;/b&gt;: {named} gets its old text back without a topic key; the agent&apos;s next save on the topic keeps rewriting {rows}.</source>
        <translation>&lt;b&gt;Deshacer sin la clave de tema&lt;/b&gt;: {named} recupera su texto anterior sin clave de tema; el próximo guardado del agente en el tema sigue reescribiendo {rows}.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Undo without the topic key&lt;/b&gt;: {named} get their old text back without a topic key; the agent&apos;s next save on the topics keeps rewriting {rows}.</source>
        <translation>&lt;b&gt;Deshacer sin la clave de tema&lt;/b&gt;: {named} recuperan su texto anterior sin clave de tema; el próximo guardado del agente en los temas sigue reescribiendo {rows}.</translation>
    </message>
    <message>
        <source>Nothing was undone; Ctrl+Z still offers to undo the edit</source>
        <translation>No se deshizo nada; Ctrl+Z sigue ofreciendo deshacer el cambio</translation>
    </message>
    <message>
        <source>Saving as a new observation would leave more than one live observation on the same topic key:</source>
        <translation>Guardar como observación nueva dejaría más de una observación viva con la misma clave de tema:</translation>
    </message>
    <message>
        <source>Save as new without the topic key</source>
        <translation>Guardar como nueva sin la clave de tema</translation>
    </message>
    <message>
        <source>&lt;b&gt;Save as new without the topic key&lt;/b&gt;: your new observation is saved without a topic key; the agent&apos;s next save on the topic keeps rewriting {rows}.</source>
        <translation>&lt;b&gt;Guardar como nueva sin la clave de tema&lt;/b&gt;: tu observación nueva se guarda sin clave de tema; el próximo guardado del agente en el tema sigue reescribiendo {rows}.</translation>
    </message>
    <message>
        <source>Two live observations on one topic</source>
        <translation>Dos observaciones vivas en un mismo tema</translation>
    </message>
    <message>
        <source>Which rows clash and what each choice does</source>
        <translation>Qué filas chocan y qué hace cada opción</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Write nothing (Esc)</source>
        <translation>No escribir nada (Esc)</translation>
    </message>
    <message>
        <source>Forget {rows}</source>
        <translation>Olvidar {rows}</translation>
    </message>
    <message>
        <source>{rows} is forgotten (Ctrl+Z undoes it); this row becomes the topic&apos;s.</source>
        <translation>{rows} se olvida (Ctrl+Z lo deshace); esta fila pasa a ser la del tema.</translation>
    </message>
    <message>
        <source>{rows} are forgotten (Ctrl+Z undoes it); this row becomes the topic&apos;s.</source>
        <translation>{rows} se olvidan (Ctrl+Z lo deshace); esta fila pasa a ser la del tema.</translation>
    </message>
    <message>
        <source>Take the topic key off {rows}</source>
        <translation>Quitar la clave de tema a {rows}</translation>
    </message>
    <message>
        <source>{rows} stays live without a topic key; this row becomes the topic&apos;s.</source>
        <translation>{rows} sigue viva sin clave de tema; esta fila pasa a ser la del tema.</translation>
    </message>
    <message>
        <source>{rows} stay live without a topic key; this row becomes the topic&apos;s.</source>
        <translation>{rows} siguen vivas sin clave de tema; esta fila pasa a ser la del tema.</translation>
    </message>
    <message>
        <source>{rows} keeps the topic key; this row is written without it.</source>
        <translation>{rows} conserva la clave de tema; esta fila se escribe sin ella.</translation>
    </message>
    <message>
        <source>{rows} keep the topic key; this row is written without it.</source>
        <translation>{rows} conservan la clave de tema; esta fila se escribe sin ella.</translation>
    </message>
    <message>
        <source>Your new observation and {rows} would be live together with the personal topic key {key}.</source>
        <translation>Tu observación nueva y {rows} estarían vivas a la vez con la clave de tema personal {key}.</translation>
    </message>
    <message>
        <source>Your new observation and {rows} would be live together with the topic key {key} in project {project}.</source>
        <translation>Tu observación nueva y {rows} estarían vivas a la vez con la clave de tema {key} en el proyecto {project}.</translation>
    </message>
    <message>
        <source>{rows} would be live together with the personal topic key {key}.</source>
        <translation>{rows} estarían vivas a la vez con la clave de tema personal {key}.</translation>
    </message>
    <message>
        <source>{rows} would be live together with the topic key {key} in project {project}.</source>
        <translation>{rows} estarían vivas a la vez con la clave de tema {key} en el proyecto {project}.</translation>
    </message>
    <message>
        <source>{rows} is forgotten now and comes back with the same action.</source>
        <translation>{rows} está olvidada ahora y vuelve con la misma acción.</translation>
    </message>
    <message>
        <source>{rows} are forgotten now and come back with the same action.</source>
        <translation>{rows} están olvidadas ahora y vuelven con la misma acción.</translation>
    </message>
    <message>
        <source>The agent never makes that state: its next save with a topic key rewrites only the newest row and leaves the others live and stale, found by every search. Choose which row keeps the topic:</source>
        <translation>El agente nunca crea ese estado: su próximo guardado con una clave de tema reescribe solo la fila más reciente y deja las demás vivas y desfasadas, apareciendo en todas las búsquedas. Elige qué fila se queda con el tema:</translation>
    </message>
    <message>
        <source>Cancel writes nothing. Ctrl+Z undoes whichever you choose, other rows included.</source>
        <translation>Cancelar no escribe nada. Ctrl+Z deshace lo que elijas, incluidas las otras filas.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Forget {rows}&lt;/b&gt;: the agent&apos;s next save on the topic rewrites {named}.</source>
        <translation>&lt;b&gt;Olvidar {rows}&lt;/b&gt;: el próximo guardado del agente en el tema reescribe {named}.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Forget {rows}&lt;/b&gt;: the agent&apos;s next save on the topic rewrites your new observation.</source>
        <translation>&lt;b&gt;Olvidar {rows}&lt;/b&gt;: el próximo guardado del agente en el tema reescribe tu observación nueva.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Take the topic key off {rows}&lt;/b&gt;: {rows} stays live, found by searches; the agent&apos;s next save on the topic rewrites {named}.</source>
        <translation>&lt;b&gt;Quitar la clave de tema a {rows}&lt;/b&gt;: {rows} sigue viva y aparece en las búsquedas; el próximo guardado del agente en el tema reescribe {named}.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Take the topic key off {rows}&lt;/b&gt;: {rows} stay live, found by searches; the agent&apos;s next save on the topic rewrites {named}.</source>
        <translation>&lt;b&gt;Quitar la clave de tema a {rows}&lt;/b&gt;: {rows} siguen vivas y aparecen en las búsquedas; el próximo guardado del agente en el tema reescribe {named}.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Take the topic key off {rows}&lt;/b&gt;: {rows} stays live, found by searches; the agent&apos;s next save on the topic rewrites your new observation.</source>
        <translation>&lt;b&gt;Quitar la clave de tema a {rows}&lt;/b&gt;: {rows} sigue viva y aparece en las búsquedas; el próximo guardado del agente en el tema reescribe tu observación nueva.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Take the topic key off {rows}&lt;/b&gt;: {rows} stay live, found by searches; the agent&apos;s next save on the topic rewrites your new observation.</source>
        <translation>&lt;b&gt;Quitar la clave de tema a {rows}&lt;/b&gt;: {rows} siguen vivas y aparecen en las búsquedas; el próximo guardado del agente en el tema reescribe tu observación nueva.</translation>
    </message>
</context>
<context>
    <name>Topics</name>
    <message>
        <source>two</source>
        <translation>dos</translation>
    </message>
    <message>
        <source>three</source>
        <translation>tres</translation>
    </message>
    <message>
        <source>four</source>
        <translation>cuatro</translation>
    </message>
    <message>
        <source>five</source>
        <translation>cinco</translation>
    </message>
    <message>
        <source>Saving it again as a new observation</source>
        <translation>Guardarla de nuevo como observación nueva</translation>
    </message>
    <message>
        <source>the new observation</source>
        <translation>la observación nueva</translation>
    </message>
    <message>
        <source>Restoring #{id}</source>
        <translation>Restaurar #{id}</translation>
    </message>
    <message>
        <source>Putting back #{id}</source>
        <translation>Devolver #{id}</translation>
    </message>
    <message>
        <source>Saving #{id} with this topic key</source>
        <translation>Guardar #{id} con esta clave de tema</translation>
    </message>
    <message>
        <source>Undoing the edit of #{id}</source>
        <translation>Deshacer la edición de #{id}</translation>
    </message>
    <message>
        <source>{subject} would give the topic “{topic_key}” {count} live observations ({rows}); the agent&apos;s next save on it would rewrite only the newest. Choose what happens to {others}.</source>
        <translation>{subject} daría al tema “{topic_key}” {count} observaciones vivas ({rows}); el próximo guardado del agente en él reescribiría solo la más reciente. Elige qué pasa con {others}.</translation>
    </message>
    <message>
        <source>{subject} would give the topic “{topic_key}” (personal, shared by every project) {count} live observations ({rows}); the agent&apos;s next save on it would rewrite only the newest. Choose what happens to {others}.</source>
        <translation>{subject} daría al tema “{topic_key}” (personal, compartido por todos los proyectos) {count} observaciones vivas ({rows}); el próximo guardado del agente en él reescribiría solo la más reciente. Elige qué pasa con {others}.</translation>
    </message>
    <message>
        <source>{count} more topics clash the same way.</source>
        <translation>{count} temas más chocan de la misma forma.</translation>
    </message>
</context>
<context>
    <name>Trash</name>
    <message>
        <source>Memory Desk&apos;s trash would be inside the agent&apos;s folder; not using it.</source>
        <translation>La papelera de Memory Desk quedaría dentro de la carpeta del agente; no se usa.</translation>
    </message>
    <message>
        <source>The trash item “{item}” is missing or damaged.</source>
        <translation>El elemento de la papelera “{item}” falta o está dañado.</translation>
    </message>
    <message>
        <source>Could not keep a copy of “{name}” in Memory Desk&apos;s trash ({trash}): {reason}. Nothing was changed.</source>
        <translation>No se pudo guardar una copia de “{name}” en la papelera de Memory Desk ({trash}): {reason}. No se cambió nada.</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <source>Memory Desk shows what your AI agents remember, and lets you prune and correct it. No agent memory was found on this computer yet.</source>
        <translation>Memory Desk muestra lo que recuerdan tus agentes de IA y te deja podarlo y corregirlo. Todavía no se ha encontrado memoria de ningún agente en este equipo.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Alisio&lt;/b&gt; keeps its observations in a database file, &lt;code&gt;memory.sqlite&lt;/code&gt;, in its state folder: usually &lt;code&gt;~/.local/state/alisio&lt;/code&gt;.</source>
        <translation>&lt;b&gt;Alisio&lt;/b&gt; guarda sus observaciones en un archivo de base de datos, &lt;code&gt;memory.sqlite&lt;/code&gt;, en su carpeta de estado: normalmente &lt;code&gt;~/.local/state/alisio&lt;/code&gt;.</translation>
    </message>
    <message>
        <source>&lt;b&gt;agent-kit agents&lt;/b&gt; such as miyagi keep their memory of you as markdown files in &lt;code&gt;~/.&amp;lt;agent&amp;gt;/memory&lt;/code&gt;, one folder per agent (and per account).</source>
        <translation>Los &lt;b&gt;agentes de agent-kit&lt;/b&gt;, como miyagi, guardan su memoria de ti como archivos markdown en &lt;code&gt;~/.&amp;lt;agent&amp;gt;/memory&lt;/code&gt;, una carpeta por agente (y por cuenta).</translation>
    </message>
    <message>
        <source>Once an agent has written something, Memory Desk finds it by itself. Meanwhile:</source>
        <translation>En cuanto un agente escriba algo, Memory Desk lo encontrará solo. Mientras tanto:</translation>
    </message>
    <message>
        <source>Welcome to Memory Desk</source>
        <translation>Te damos la bienvenida a Memory Desk</translation>
    </message>
    <message>
        <source>Welcome</source>
        <translation>Bienvenida</translation>
    </message>
    <message>
        <source>Alisio&apos;s database is $ALISIO_STATE_HOME/memory.sqlite, else $XDG_STATE_HOME/alisio/memory.sqlite, else ~/.local/state/alisio/memory.sqlite, unless its config.json sets dbPath.</source>
        <translation>La base de datos de Alisio es $ALISIO_STATE_HOME/memory.sqlite, si no $XDG_STATE_HOME/alisio/memory.sqlite, si no ~/.local/state/alisio/memory.sqlite, salvo que su config.json fije dbPath.</translation>
    </message>
    <message>
        <source>Open the demo</source>
        <translation>Abrir la demo</translation>
    </message>
    <message>
        <source>Explore a made-up memory; your files are not touched</source>
        <translation>Explora una memoria inventada; tus archivos no se tocan</translation>
    </message>
    <message>
        <source>Open a database…</source>
        <translation>Abrir una base de datos…</translation>
    </message>
    <message>
        <source>Pick an Alisio memory.sqlite (Ctrl+O)</source>
        <translation>Elige un memory.sqlite de Alisio (Ctrl+O)</translation>
    </message>
    <message>
        <source>Open a folder…</source>
        <translation>Abrir una carpeta…</translation>
    </message>
    <message>
        <source>Pick an agent&apos;s memory folder (Ctrl+Shift+O)</source>
        <translation>Elige la carpeta de memoria de un agente (Ctrl+Shift+O)</translation>
    </message>
</context>
<context>
    <name>Wording</name>
    <message>
        <source>{items} and {last}</source>
        <translation>{items} y {last}</translation>
    </message>
    <message>
        <source>{first} {then}</source>
        <translation>{first} {then}</translation>
    </message>
    <message>
        <source>{first}
{then}</source>
        <translation>{first}
{then}</translation>
    </message>
    <message>
        <source>{first}; {then}</source>
        <translation>{first}; {then}</translation>
    </message>
    <message>
        <source>{first}, {then}</source>
        <translation>{first}, {then}</translation>
    </message>
</context>
<context>
    <name>WriteWaitBanner</name>
    <message>
        <source>Waiting for the agent</source>
        <translation>Esperando al agente</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Give up this change: nothing of it is written</source>
        <translation>Renunciar a este cambio: no se escribe nada de él</translation>
    </message>
    <message>
        <source>Too late to cancel “{what}”: part of it is written, so the rest will be written as soon as the agent lets go of the database</source>
        <translation>Demasiado tarde para cancelar «{what}»: una parte ya está escrita, así que el resto se escribirá en cuanto el agente libere la base de datos</translation>
    </message>
    <message>
        <source>Waiting for the agent to finish writing… ({seconds} s) “{what}” is made as soon as it does; the window stays usable meanwhile. Cancel writes nothing.</source>
        <translation>Esperando a que el agente termine de escribir… ({seconds} s) «{what}» se hará en cuanto termine; mientras tanto la ventana sigue usable. Cancelar no escribe nada.</translation>
    </message>
    <message>
        <source>Waiting for the agent to finish writing… “{what}” is made as soon as it does; the window stays usable meanwhile. Cancel writes nothing.</source>
        <translation>Esperando a que el agente termine de escribir… «{what}» se hará en cuanto termine; mientras tanto la ventana sigue usable. Cancelar no escribe nada.</translation>
    </message>
</context>
</TS>
